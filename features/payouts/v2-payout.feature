# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:payouts
Feature: PAYOUT — POST /api/v2/payout/{endpointId}
  The PAYOUT endpoint takes a PayoutRequest form body, signed with OAuth 1.0a with HMAC-SHA1 (key: the control key and "&"),
  and answers AsyncResponse as application/vnd.pay+json.

  @endpoint:PAYOUT @scheme:oauth-hmac-sha1 @positive @spec:endpoints @money
  Scenario: a signed PAYOUT request is accepted and its order reaches a final status
    When I send a signed "PAYOUT" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:PAYOUT @scheme:oauth-hmac-sha1 @negative:accept-missing @spec:common-headers
  Scenario: PAYOUT without the Accept header is refused
    When I send a signed "PAYOUT" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PAYOUT @scheme:oauth-hmac-sha1 @negative:accept-wrong @spec:common-headers
  Scenario: PAYOUT with Accept: application/json is refused
    When I send a signed "PAYOUT" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PAYOUT @scheme:oauth-hmac-sha1 @negative:signature-missing @spec:authentication
  Scenario: PAYOUT without its Authorization header is refused
    When I send an unsigned "PAYOUT" request
    Then the gateway refuses it
    And the error code is "AUTH_HEADER_MISSING"

  @endpoint:PAYOUT @scheme:oauth-hmac-sha1 @negative:signature-wrong @spec:authentication
  Scenario: PAYOUT with a wrong signature (its bytes XOR-ed with 0x5A, still valid Base64) is refused
    When I send a "PAYOUT" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "SIGNATURE_INVALID"

  @endpoint:PAYOUT @scheme:oauth-hmac-sha1 @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: PAYOUT without its mandatory "client_orderid" field is refused
    When I send a signed "PAYOUT" request without the "client_orderid" field
    Then the gateway refuses it
    And the error names the field "client_orderid"
