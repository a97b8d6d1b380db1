@area:auth @capability:endpoint-groups
Feature: endpoint groups
  On the operations whose public page lists an endpoint-group URL, an endpoint group id is also
  accepted in the endpointId's place in the path, and in the formula where the formula names
  endpointId (spec Identifiers; A-3). The vendor's library sends to its own URL form,
  {base_url}/api/v2/{operation}/group/{groupId}, for the payment and for status, capture and return
  of it. These run where the merchant has a group: PAYCONFORM_ENDPOINT_GROUP_ID, or the test merchant's.

  @endpoint:SALE @scheme:control @spec:identifiers @assumption @A-3
  Scenario: a SALE to the endpoint group, its id in the endpointId's place, is accepted
    Given the merchant has an endpoint group
    When I send a signed "SALE" request to the endpoint group
    Then the gateway accepts it
    And the request went to "…/sale/{groupId}"

  @endpoint:SALE @scheme:control @spec:identifiers @assumption @A-3
  Scenario: a SALE to the endpoint group's own URL, …/sale/group/{groupId}, is accepted
    Given the merchant has an endpoint group
    When I send a signed "SALE" request to the endpoint group's own URL
    Then the gateway accepts it
    And the request went to "…/group/{groupId}"

  @endpoint:SALE @endpoint:STATUS @endpoint:RETURN @scheme:control @spec:identifiers @money @assumption @A-3
  Scenario: a SALE made through the group's own URL is followed by status and returned through it
    Given the merchant has an endpoint group
    And every request goes to the endpoint group's own URL
    And an approved "SALE" order of "5.00"
    Then the request went to "…/group/{groupId}"
    When I send a signed "RETURN" request with:
      | amount | 2.00 |
    Then the gateway accepts it
    And the request went to "…/group/{groupId}"

  @endpoint:PREAUTH @endpoint:STATUS @endpoint:CAPTURE @scheme:control @spec:identifiers @money @assumption @A-3
  Scenario: a PREAUTH made through the group's own URL is captured through it
    Given the merchant has an endpoint group
    And every request goes to the endpoint group's own URL
    And an approved "PREAUTH" order of "5.00"
    Then the request went to "…/group/{groupId}"
    When I send a signed "CAPTURE" request with:
      | amount | 5.00 |
    Then the gateway accepts it
    And the request went to "…/group/{groupId}"
