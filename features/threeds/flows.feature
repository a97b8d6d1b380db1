@area:threeds @scheme:control @mock-only @capability:3-d-secure
Feature: 3-D Secure
  A card that needs 3-D Secure leaves its order processing, with a form in status, until the merchant
  uploads the authentication result; a failed authentication declines the order.

  @endpoint:SALE @spec:flows @assumption @A-23
  Scenario Outline: 3-D Secure through <operation>
    Given a "SALE" order paid with the "3-D Secure" test card
    Then status shows a 3-D Secure form
    When I send a signed "<operation>" request
    Then the gateway accepts it
    And the kept order ends "approved"

    Examples:
      | operation                    |
      | TDS_UPLOAD_CRES_RESULT       |
      | TDS_UPLOAD_METHOD_URL_RESULT |
      | TDS_UPLOAD_PARES_RESULT      |

  @endpoint:TDS_UPLOAD_PARES_RESULT @spec:flows @assumption @A-27
  Scenario: a failed authentication declines the order
    Given a "SALE" order paid with the "3-D Secure" test card
    When I send a signed "TDS_UPLOAD_PARES_RESULT" request with:
      | pares | MOCK-3DS-FAIL |
    Then the gateway accepts it
    And the kept order ends "declined"

  @endpoint:TDS_UPLOAD_CRES_RESULT @spec:flows @assumption @negative @A-23 @rule:3ds-step-pending
  Scenario: an upload for an order that waits for no 3-D Secure step is refused
    Given an approved "SALE" order of "1.00"
    When I send a signed "TDS_UPLOAD_CRES_RESULT" request
    Then the gateway refuses it
    And the error code is "ORDER_STATE"
