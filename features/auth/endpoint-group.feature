@area:auth
Feature: endpoint groups
  On the operations whose control formula starts with endpointId, an endpoint group id is also
  accepted, in the endpointId's place in the path and in the formula (spec Identifiers; A-3). The
  vendor's library sends to its own URL form, {base_url}/api/v2/{operation}/group/{groupId}.
  These run where the merchant has a group: PAYCONFORM_ENDPOINT_GROUP_ID, or the test merchant's.

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
