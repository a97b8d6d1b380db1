@area:payouts @scheme:oauth-rsa-sha256
Feature: payout check, then pay
  A v4 payout can be checked first; payout-pay then pays an approved check, once.

  @endpoint:PAYOUT_V4_CHECK @endpoint:PAYOUT_V4_PAY @spec:flows @money @assumption @negative @A-27 @rule:pay-once
  Scenario: payout-check then payout-pay; a second pay is refused
    Given an approved "PAYOUT_V4_CHECK" order of "7.00"
    When I send a signed "PAYOUT_V4_PAY" request
    Then the gateway accepts it
    When I send a signed "PAYOUT_V4_PAY" request
    Then the gateway refuses it
    And the error code is "ORDER_STATE"
