# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:transfers
Feature: PAN_ELIGIBILITY_SEND — POST /api/v2/pan-eligibility/send/{endpointId}
  The PAN_ELIGIBILITY_SEND endpoint takes a PanEligibilityRequest form body, signed with OAuth 1.0a with HMAC-SHA1 (key: the control key and "&"),
  and answers AsyncResponse (assumed: the spec shows none) as application/vnd.pay+json.

  @endpoint:PAN_ELIGIBILITY_SEND @scheme:oauth-hmac-sha1 @positive @spec:endpoints
  Scenario: a signed PAN_ELIGIBILITY_SEND request is accepted and its order reaches a final status
    When I send a signed "PAN_ELIGIBILITY_SEND" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:PAN_ELIGIBILITY_SEND @scheme:oauth-hmac-sha1 @negative:accept-missing @spec:common-headers
  Scenario: PAN_ELIGIBILITY_SEND without the Accept header is refused
    When I send a signed "PAN_ELIGIBILITY_SEND" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PAN_ELIGIBILITY_SEND @scheme:oauth-hmac-sha1 @negative:accept-wrong @spec:common-headers
  Scenario: PAN_ELIGIBILITY_SEND with Accept: application/json is refused
    When I send a signed "PAN_ELIGIBILITY_SEND" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PAN_ELIGIBILITY_SEND @scheme:oauth-hmac-sha1 @negative:signature-missing @spec:authentication
  Scenario: PAN_ELIGIBILITY_SEND without its Authorization header is refused
    When I send an unsigned "PAN_ELIGIBILITY_SEND" request
    Then the gateway refuses it
    And the error code is "AUTH_HEADER_MISSING"

  @endpoint:PAN_ELIGIBILITY_SEND @scheme:oauth-hmac-sha1 @negative:signature-wrong @spec:authentication
  Scenario: PAN_ELIGIBILITY_SEND with a wrong signature (its bytes XOR-ed with 0x5A, still valid Base64) is refused
    When I send a "PAN_ELIGIBILITY_SEND" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "SIGNATURE_INVALID"

  @endpoint:PAN_ELIGIBILITY_SEND @scheme:oauth-hmac-sha1 @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: PAN_ELIGIBILITY_SEND without its mandatory "client_orderid" field is refused
    When I send a signed "PAN_ELIGIBILITY_SEND" request without the "client_orderid" field
    Then the gateway refuses it
    And the error names the field "client_orderid"
