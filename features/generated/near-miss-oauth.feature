@area:generated @generated @family:near-miss-oauth
Feature: generated checks: OAuth near-misses
  An OAuth signature made over another URL scheme, host, port, path, a query not sent, or method, with
  lowercase percent-escapes, or with a sent query left out: a gateway must refuse each (RFC 5849 §3.4).
  Drawn by fast-check from the run's seed (certify --seed S replays, --explore N runs more): docs/certify.md.

  @spec:authentication
  Scenario Outline: generated OAuth near-misses on <operation> are refused
    Then every generated "near-miss-oauth" request to "<operation>" is refused

    @endpoint:PAYOUT @scheme:oauth-hmac-sha1
    Examples:
      | operation |
      | PAYOUT |

    @endpoint:PAN_ELIGIBILITY_SEND @scheme:oauth-hmac-sha1
    Examples:
      | operation |
      | PAN_ELIGIBILITY_SEND |

    @endpoint:CARDREF_V4 @scheme:oauth-rsa-sha256
    Examples:
      | operation |
      | CARDREF_V4 |

    @endpoint:CREATE_RP_V4 @scheme:oauth-rsa-sha256
    Examples:
      | operation |
      | CREATE_RP_V4 |

    @endpoint:PAYOUT_V4_CHECK @scheme:oauth-rsa-sha256
    Examples:
      | operation |
      | PAYOUT_V4_CHECK |

    @endpoint:PAYOUT_V4_PAY @scheme:oauth-rsa-sha256
    Examples:
      | operation |
      | PAYOUT_V4_PAY |

    @endpoint:PAYOUT_V4 @scheme:oauth-rsa-sha256
    Examples:
      | operation |
      | PAYOUT_V4 |

    @endpoint:PROCESS_RP_V4 @scheme:oauth-rsa-sha256
    Examples:
      | operation |
      | PROCESS_RP_V4 |

    @endpoint:TRANSFER_V4 @scheme:oauth-rsa-sha256
    Examples:
      | operation |
      | TRANSFER_V4 |

    @endpoint:TRANSFER_BY_REF_V4 @scheme:oauth-rsa-sha256
    Examples:
      | operation |
      | TRANSFER_BY_REF_V4 |
