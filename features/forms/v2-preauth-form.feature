# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:forms
Feature: PREAUTHFORM — POST /api/v2/preauth-form/{endpointId}
  The PREAUTHFORM endpoint takes a AuthFormRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers AsyncCheckoutFormRedirect as application/vnd.pay+json.

  @endpoint:PREAUTHFORM @scheme:control @positive @spec:endpoints @money
  Scenario: a signed PREAUTHFORM request is accepted
    When I send a signed "PREAUTHFORM" request
    Then the gateway accepts it
    And the answer carries a "redirect-url"

  @endpoint:PREAUTHFORM @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: PREAUTHFORM without the Accept header is refused
    When I send a signed "PREAUTHFORM" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PREAUTHFORM @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: PREAUTHFORM with Accept: application/json is refused
    When I send a signed "PREAUTHFORM" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PREAUTHFORM @scheme:control @negative:signature-missing @spec:authentication
  Scenario: PREAUTHFORM without its control field is refused
    When I send an unsigned "PREAUTHFORM" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:PREAUTHFORM @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: PREAUTHFORM with a wrong control value (a formula field changed after signing) is refused
    When I send a "PREAUTHFORM" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:PREAUTHFORM @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: PREAUTHFORM without its mandatory "currency" field is refused
    When I send a signed "PREAUTHFORM" request without the "currency" field
    Then the gateway refuses it
    And the error names the field "currency"
