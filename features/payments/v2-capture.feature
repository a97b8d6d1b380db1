# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:payments
Feature: CAPTURE — POST /api/v2/capture/{endpointId}
  The CAPTURE endpoint takes a CaptureRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers AsyncResponse as application/vnd.pay+json.
  It acts on the orderid of a PREAUTH, which each scenario creates first.

  @endpoint:CAPTURE @scheme:control @positive @spec:endpoints @money
  Scenario: a signed CAPTURE request is accepted and its order reaches a final status
    When I send a signed "CAPTURE" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:CAPTURE @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: CAPTURE without the Accept header is refused
    When I send a signed "CAPTURE" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:CAPTURE @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: CAPTURE with Accept: application/json is refused
    When I send a signed "CAPTURE" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:CAPTURE @scheme:control @negative:signature-missing @spec:authentication
  Scenario: CAPTURE without its control field is refused
    When I send an unsigned "CAPTURE" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:CAPTURE @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: CAPTURE with a wrong control value (a formula field changed after signing) is refused
    When I send a "CAPTURE" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:CAPTURE @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: CAPTURE without its mandatory "login" field is refused
    When I send a signed "CAPTURE" request without the "login" field
    Then the gateway refuses it
    And the error names the field "login"
