@area:auth @scheme:control
Feature: control-field signing
  Operations with a control formula carry control = SHA-1 of the formula's fields in the spec's order,
  amounts in integer cents (10.00 becomes 1000), the merchant control key last, as 40 hex digits.
  Each scenario makes one mistake partners make (docs/diagnoses.md) and expects a refusal.

  @endpoint:SALE @spec:authentication @negative
  Scenario Outline: a SALE signed with the <mistake> mistake is refused
    When I send a "SALE" request signed with the "<mistake>" mistake
    Then the gateway refuses it
    And the error code is "<code>"

    # The formula's order, the key last and amounts in cents are the spec's (Scheme A, rules 2-3).
    Examples:
      | mistake            | code              |
      | decimal-amount     | CONTROL_INVALID   |
      | fields-wrong-order | CONTROL_INVALID   |
      | key-not-last       | CONTROL_INVALID   |

    # The digest's encoding is not shown (Scheme A, rule 5): lowercase hex is our assumption.
    @assumption @A-1
    Examples:
      | mistake            | code              |
      | uppercase-hex      | CONTROL_MALFORMED |
      | base64-digest      | CONTROL_MALFORMED |

  @endpoint:CAPTURE @spec:authentication @negative @rule:control-signature
  Scenario: a CAPTURE whose control has the amount in decimal instead of cents is refused
    When I send a "CAPTURE" request signed with the "decimal-amount" mistake
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:STATUS @spec:authentication @negative @rule:control-signature
  Scenario: a STATUS signed with login and endpointId confused is refused
    When I send a "STATUS" request signed with the "login-endpointid-confusion" mistake
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:SALE @spec:authentication
  Scenario Outline: a SALE with <what> in a signed value is accepted
    When I send a signed "SALE" request with "order_desc" set to "<value>"
    Then the gateway accepts it

    Examples:
      | what            | value                      |
      | a space         | Blue shirt                 |
      | a plus sign     | A+B                        |
      | a percent sign  | 100% cotton                |
      | & and =         | size=XL&colour=blue        |
      | unicode         | Zahlung für Jörg — 東京 🎉 |
