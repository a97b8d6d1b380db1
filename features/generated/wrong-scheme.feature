@area:generated @generated @family:wrong-scheme
Feature: generated checks: wrong signature scheme
  OAuth on a control endpoint, and control (or the other OAuth method) on an OAuth endpoint, each correct by
  its own scheme: a gateway must refuse each.
  Drawn by fast-check from the run's seed (certify --seed S replays, --explore N runs more): docs/certify.md.

  @spec:authentication
  Scenario Outline: generated wrong signature scheme on <operation> are refused
    Then every generated "wrong-scheme" request to "<operation>" is refused

    @endpoint:TDS_UPLOAD_CRES_RESULT @scheme:control
    Examples:
      | operation |
      | TDS_UPLOAD_CRES_RESULT |

    @endpoint:TDS_UPLOAD_METHOD_URL_RESULT @scheme:control
    Examples:
      | operation |
      | TDS_UPLOAD_METHOD_URL_RESULT |

    @endpoint:TDS_UPLOAD_PARES_RESULT @scheme:control
    Examples:
      | operation |
      | TDS_UPLOAD_PARES_RESULT |

    @endpoint:ACCOUNT_VERIFICATION_FORM @scheme:control
    Examples:
      | operation |
      | ACCOUNT_VERIFICATION_FORM |

    @endpoint:ACCOUNT_VERIFICATION @scheme:control
    Examples:
      | operation |
      | ACCOUNT_VERIFICATION |

    @endpoint:CAPTURE @scheme:control
    Examples:
      | operation |
      | CAPTURE |

    @endpoint:CARDREF @scheme:control
    Examples:
      | operation |
      | CARDREF |

    @endpoint:CARDINFO @scheme:control
    Examples:
      | operation |
      | CARDINFO |

    @endpoint:REBILL @scheme:control
    Examples:
      | operation |
      | REBILL |

    @endpoint:PREAUTHFORM @scheme:control
    Examples:
      | operation |
      | PREAUTHFORM |

    @endpoint:PREAUTH @scheme:control
    Examples:
      | operation |
      | PREAUTH |

    @endpoint:RETURN @scheme:control
    Examples:
      | operation |
      | RETURN |

    @endpoint:SALEFORM @scheme:control
    Examples:
      | operation |
      | SALEFORM |

    @endpoint:SALE @scheme:control
    Examples:
      | operation |
      | SALE |

    @endpoint:STATUS @scheme:control
    Examples:
      | operation |
      | STATUS |

    @endpoint:VOID @scheme:control
    Examples:
      | operation |
      | VOID |

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
