# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:status
Feature: STATUS — POST /api/v2/status/{endpointId}
  The STATUS endpoint takes a StatusRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers StatusResponse as application/vnd.pay+json.
  It acts on the orderid of a SALE, which each scenario creates first.

  @endpoint:STATUS @scheme:control @positive @spec:endpoints
  Scenario: a signed STATUS request is accepted
    When I send a signed "STATUS" request
    Then the gateway accepts it
    And the answer carries a "status"

  @endpoint:STATUS @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: STATUS without the Accept header is refused
    When I send a signed "STATUS" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:STATUS @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: STATUS with Accept: application/json is refused
    When I send a signed "STATUS" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:STATUS @scheme:control @negative:signature-missing @spec:authentication
  Scenario: STATUS without its control field is refused
    When I send an unsigned "STATUS" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:STATUS @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: STATUS with a wrong control value (a formula field changed after signing) is refused
    When I send a "STATUS" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:STATUS @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: STATUS without its mandatory "login" field is refused
    When I send a signed "STATUS" request without the "login" field
    Then the gateway refuses it
    And the error names the field "login"
