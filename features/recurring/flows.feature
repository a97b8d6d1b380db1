@area:recurring @scheme:oauth-rsa-sha256
Feature: recurring payments
  A recurring payment is created on a card reference, then each charge is processed against it.

  @endpoint:CREATE_RP_V4 @endpoint:PROCESS_RP_V4 @spec:flows @money @assumption @A-27
  Scenario: create a recurring payment, then process a charge
    When I send a signed "CARDREF_V4" request
    And I keep the "card-ref-id" of the answer
    And I send a signed "CREATE_RP_V4" request with:
      | amount | 9.99 |
    Then the gateway accepts it
    When I keep the "recurring-payment-id" of the answer
    And I send a signed "PROCESS_RP_V4" request
    Then the gateway accepts it
    And the order ends "approved"

  @endpoint:PROCESS_RP_V4 @spec:flows @assumption @negative @A-27 @rule:reference-known
  Scenario: processing an unknown recurring payment is refused
    When I send a signed "PROCESS_RP_V4" request with:
      | recurring-payment-id | 1 |
    Then the gateway refuses it
    And the error code is "RECURRING_PAYMENT_UNKNOWN"
