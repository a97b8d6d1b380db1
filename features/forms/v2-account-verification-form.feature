# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:forms
Feature: ACCOUNT_VERIFICATION_FORM — POST /api/v2/account-verification-form/{endpointId}
  The ACCOUNT_VERIFICATION_FORM endpoint takes a AccountVerificationFormRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers AsyncCheckoutFormRedirect as application/vnd.pay+json.

  @endpoint:ACCOUNT_VERIFICATION_FORM @scheme:control @positive @spec:endpoints
  Scenario: a signed ACCOUNT_VERIFICATION_FORM request is accepted
    When I send a signed "ACCOUNT_VERIFICATION_FORM" request
    Then the gateway accepts it
    And the answer carries a "redirect-url"

  @endpoint:ACCOUNT_VERIFICATION_FORM @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: ACCOUNT_VERIFICATION_FORM without the Accept header is refused
    When I send a signed "ACCOUNT_VERIFICATION_FORM" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:ACCOUNT_VERIFICATION_FORM @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: ACCOUNT_VERIFICATION_FORM with Accept: application/json is refused
    When I send a signed "ACCOUNT_VERIFICATION_FORM" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:ACCOUNT_VERIFICATION_FORM @scheme:control @negative:signature-missing @spec:authentication
  Scenario: ACCOUNT_VERIFICATION_FORM without its control field is refused
    When I send an unsigned "ACCOUNT_VERIFICATION_FORM" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:ACCOUNT_VERIFICATION_FORM @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: ACCOUNT_VERIFICATION_FORM with a wrong control value (a formula field changed after signing) is refused
    When I send a "ACCOUNT_VERIFICATION_FORM" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:ACCOUNT_VERIFICATION_FORM @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: ACCOUNT_VERIFICATION_FORM without its mandatory "order_desc" field is refused
    When I send a signed "ACCOUNT_VERIFICATION_FORM" request without the "order_desc" field
    Then the gateway refuses it
    And the error names the field "order_desc"
