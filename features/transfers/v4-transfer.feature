# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:transfers
Feature: TRANSFER_V4 — POST /api/v4/transfer/{endpointId}
  The TRANSFER_V4 endpoint takes a TransferV4Request form body, signed with OAuth 1.0a with RSA-SHA256 (the merchant's registered key),
  and answers AsyncResponse (assumed: the spec shows none) as application/vnd.pay+json.

  @endpoint:TRANSFER_V4 @scheme:oauth-rsa-sha256 @positive @spec:endpoints @money
  Scenario: a signed TRANSFER_V4 request is accepted and its order reaches a final status
    When I send a signed "TRANSFER_V4" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:TRANSFER_V4 @scheme:oauth-rsa-sha256 @negative:accept-missing @spec:common-headers
  Scenario: TRANSFER_V4 without the Accept header is refused
    When I send a signed "TRANSFER_V4" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:TRANSFER_V4 @scheme:oauth-rsa-sha256 @negative:accept-wrong @spec:common-headers
  Scenario: TRANSFER_V4 with Accept: application/json is refused
    When I send a signed "TRANSFER_V4" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:TRANSFER_V4 @scheme:oauth-rsa-sha256 @negative:signature-missing @spec:authentication
  Scenario: TRANSFER_V4 without its Authorization header is refused
    When I send an unsigned "TRANSFER_V4" request
    Then the gateway refuses it
    And the error code is "AUTH_HEADER_MISSING"

  @endpoint:TRANSFER_V4 @scheme:oauth-rsa-sha256 @negative:signature-wrong @spec:authentication
  Scenario: TRANSFER_V4 with a wrong signature (its bytes XOR-ed with 0x5A, still valid Base64) is refused
    When I send a "TRANSFER_V4" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "SIGNATURE_INVALID"

  @endpoint:TRANSFER_V4 @scheme:oauth-rsa-sha256 @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: TRANSFER_V4 without its mandatory "client-order-id" field is refused
    When I send a signed "TRANSFER_V4" request without the "client-order-id" field
    Then the gateway refuses it
    And the error names the field "client-order-id"
