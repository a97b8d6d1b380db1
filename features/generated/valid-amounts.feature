@area:generated @generated @family:valid-amounts
Feature: generated checks: valid amounts
  Valid control requests whose amounts cross the cents boundaries where binary floating point goes wrong
  (0.29, 1.15, 4.35, 8.20 …, within the live cap): a gateway must sign and check integer cents (Scheme A, rule 3).
  Drawn by fast-check from the run's seed (certify --seed S replays, --explore N runs more): docs/certify.md.

  @spec:authentication
  Scenario Outline: generated valid amounts on <operation> are accepted
    Then every generated "valid-amounts" request to "<operation>" is accepted

    @endpoint:CAPTURE @scheme:control
    Examples:
      | operation |
      | CAPTURE |

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
