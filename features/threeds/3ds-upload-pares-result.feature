# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:threeds
Feature: TDS_UPLOAD_PARES_RESULT — POST /api/3ds/v1/upload-pares-result/{endpointId}
  The TDS_UPLOAD_PARES_RESULT endpoint takes a TdsPaResResultRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers AsyncResponse as application/vnd.pay+json.
  It acts on the orderid of a SALE, which each scenario creates first.

  @endpoint:TDS_UPLOAD_PARES_RESULT @scheme:control @positive @spec:endpoints
  Scenario: a signed TDS_UPLOAD_PARES_RESULT request is accepted and its order reaches a final status
    When I send a signed "TDS_UPLOAD_PARES_RESULT" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:TDS_UPLOAD_PARES_RESULT @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: TDS_UPLOAD_PARES_RESULT without the Accept header is refused
    When I send a signed "TDS_UPLOAD_PARES_RESULT" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:TDS_UPLOAD_PARES_RESULT @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: TDS_UPLOAD_PARES_RESULT with Accept: application/json is refused
    When I send a signed "TDS_UPLOAD_PARES_RESULT" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:TDS_UPLOAD_PARES_RESULT @scheme:control @negative:signature-missing @spec:authentication
  Scenario: TDS_UPLOAD_PARES_RESULT without its control field is refused
    When I send an unsigned "TDS_UPLOAD_PARES_RESULT" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:TDS_UPLOAD_PARES_RESULT @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: TDS_UPLOAD_PARES_RESULT with a wrong control value (a formula field changed after signing) is refused
    When I send a "TDS_UPLOAD_PARES_RESULT" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:TDS_UPLOAD_PARES_RESULT @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: TDS_UPLOAD_PARES_RESULT without its mandatory "pares" field is refused
    When I send a signed "TDS_UPLOAD_PARES_RESULT" request without the "pares" field
    Then the gateway refuses it
    And the error names the field "pares"
