@area:payments
Feature: callbacks to the merchant
  The spec shows no callbacks; the API family's gateways call the order's notify_url or
  server_callback_url back when it reaches a final status, by HTTP GET with orderid, merchant_order,
  client_orderid, amount, status, type and control = SHA-1(status + orderid + client_orderid +
  merchant_control_key) added to the URL's own query (a POST where the gateway profile says
  callbacks.method POST), and retry anything but 200 (A-31, docs/callbacks.md). The run's own
  handler receives it: on this machine against the mock, through PAYCONFORM_CALLBACK_URL and
  PAYCONFORM_CALLBACK_PORT against a gateway (not applicable without).

  @endpoint:SALE @scheme:control @spec:callbacks @assumption @A-31 @capability:callbacks
  Scenario: an approved SALE is called back, signed, with the order's ids and amount
    Given a callback handler of this run
    When I send a signed "SALE" request with the handler as server_callback_url
    Then the gateway accepts it
    And the handler receives the callback of the order
    And the callback carries the order's ids, amount and final status, signed with the callback formula

  @endpoint:SALE @scheme:control @spec:callbacks @assumption @A-31 @capability:callbacks
  Scenario: a handler that answers 503 is called again
    Given a callback handler of this run
    And the handler answers 503 to the first callback
    When I send a signed "SALE" request with the handler as server_callback_url
    Then the gateway accepts it
    And the gateway sends the callback again after the failed answer

  @endpoint:SALEFORM @scheme:control @spec:callbacks @assumption @A-31 @mock-only
  @capability:callbacks @capability:hosted-pages @capability:customer-return
  Scenario: a SALEFORM paid on the hosted page returns the customer signed and is called back
    Given a callback handler of this run
    When I send a signed "SALEFORM" request with the handler as server_callback_url
    Then the gateway accepts it
    When the customer pays on the hosted page with the "approved" test card
    Then the customer is sent back to redirect_url with the signed return fields
    And the handler receives the callback of the order
    And the callback carries the order's ids, amount and final status, signed with the callback formula
