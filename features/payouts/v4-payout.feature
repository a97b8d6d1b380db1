# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:payouts
Feature: PAYOUT_V4 — POST /api/v4/payout/{endpointId}
  The PAYOUT_V4 endpoint takes a PayoutV4Request form body, signed with OAuth 1.0a with RSA-SHA256 (the merchant's registered key),
  and answers AsyncResponse as application/vnd.pay+json.

  @endpoint:PAYOUT_V4 @scheme:oauth-rsa-sha256 @positive @spec:endpoints @money
  Scenario: a signed PAYOUT_V4 request is accepted and its order reaches a final status
    When I send a signed "PAYOUT_V4" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:PAYOUT_V4 @scheme:oauth-rsa-sha256 @negative:accept-missing @spec:common-headers
  Scenario: PAYOUT_V4 without the Accept header is refused
    When I send a signed "PAYOUT_V4" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PAYOUT_V4 @scheme:oauth-rsa-sha256 @negative:accept-wrong @spec:common-headers
  Scenario: PAYOUT_V4 with Accept: application/json is refused
    When I send a signed "PAYOUT_V4" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PAYOUT_V4 @scheme:oauth-rsa-sha256 @negative:signature-missing @spec:authentication
  Scenario: PAYOUT_V4 without its Authorization header is refused
    When I send an unsigned "PAYOUT_V4" request
    Then the gateway refuses it
    And the error code is "AUTH_HEADER_MISSING"

  @endpoint:PAYOUT_V4 @scheme:oauth-rsa-sha256 @negative:signature-wrong @spec:authentication
  Scenario: PAYOUT_V4 with a wrong signature (its bytes XOR-ed with 0x5A, still valid Base64) is refused
    When I send a "PAYOUT_V4" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "SIGNATURE_INVALID"

  @endpoint:PAYOUT_V4 @scheme:oauth-rsa-sha256 @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: PAYOUT_V4 without its mandatory "client-order-id" field is refused
    When I send a signed "PAYOUT_V4" request without the "client-order-id" field
    Then the gateway refuses it
    And the error names the field "client-order-id"
