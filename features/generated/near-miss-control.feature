@area:generated @generated @family:near-miss-control
Feature: generated checks: control near-misses
  A correctly signed request whose control has one hex digit changed at a drawn position, is cut, padded or
  written in uppercase: a gateway must refuse each (Scheme A).
  Drawn by fast-check from the run's seed (certify --seed S replays, --explore N runs more): docs/certify.md.

  @spec:authentication
  Scenario Outline: generated control near-misses on <operation> are refused
    Then every generated "near-miss-control" request to "<operation>" is refused

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
