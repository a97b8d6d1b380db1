@area:forms @mock-only @capability:hosted-pages @capability:customer-return
Feature: hosted payment forms
  A -form endpoint answers a redirect URL; the customer pays on that page and is sent back to the
  order's redirect_url with the signed return fields (A-31); status then shows the outcome.

  @spec:flows @assumption @A-23 @A-31
  Scenario Outline: <operation> through its hosted page to <status>
    When I send a signed "<operation>" request
    Then the gateway accepts it
    When the customer pays on the hosted page with the "<card>" test card
    Then the customer is sent back to redirect_url with the signed return fields
    And the order ends "<status>"

    Examples:
      | operation                 | card     | status   |
      | SALEFORM                  | approved | approved |
      | PREAUTHFORM               | approved | approved |
      | PAYMENTFORM               | declined | declined |
      | PAYOUTFORM                | approved | approved |
      | ACCOUNT_VERIFICATION_FORM | approved | approved |

  @endpoint:CARDREF @endpoint:REBILL @spec:flows @money @assumption @A-27 @A-43
  Scenario Outline: an order paid on <operation>'s hosted page gives a card reference, which a rebill charges
    When I send a signed "<operation>" request
    Then the gateway accepts it
    When I keep the "paynet-order-id" of the answer
    And the customer pays on the hosted page with the "approved" test card
    Then the kept order ends "approved"
    When I send a signed "CARDREF" request
    Then the gateway accepts it
    When I keep the "card-ref-id" of the answer
    And I send a signed "REBILL" request with:
      | amount | 1.50 |
    Then the gateway accepts it
    And the order ends "approved"

    Examples:
      | operation   |
      | SALEFORM    |
      | PREAUTHFORM |
