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
