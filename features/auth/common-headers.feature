@area:auth
Feature: headers and URL every request shares
  Every request is a POST with Content-Type application/x-www-form-urlencoded and
  Accept application/vnd.pay+json, to {base_url}, which includes any prefix before /api/.

  @endpoint:SALE @scheme:control @spec:common-headers @negative @rule:content-type
  Scenario: a JSON body type is refused
    When I send a signed "SALE" request with the Content-Type "application/json"
    Then the gateway refuses it
    And the error code is "UNSUPPORTED_MEDIA_TYPE"

  @endpoint:SALE @scheme:control @spec:common-headers @negative:accept-wrong @rule:accept-header
  Scenario: Accept: */* is refused (the spec requires application/vnd.pay+json)
    When I send a signed "SALE" request with the Accept header "*/*"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:SALE @scheme:control @spec:common-headers
  Scenario: a charset parameter on the form content type is accepted
    When I send a signed "SALE" request with the Content-Type "application/x-www-form-urlencoded; charset=utf-8"
    Then the gateway accepts it

  @endpoint:PAYOUT_V4 @scheme:oauth-rsa-sha256 @spec:endpoints
  Scenario: a base URL with a path prefix before /api/ is signed and served
    Given the base URL has a path prefix before "/api/"
    When I send a signed "PAYOUT_V4" request
    Then the gateway accepts it
    And the request went to the prefix

  @endpoint:PAYOUT_V4 @scheme:oauth-rsa-sha256 @spec:endpoints @mock-only
  Scenario: a base URL with no prefix before /api/ is signed and served
    Given the embedded mock also serves without a prefix
    When I send a signed "PAYOUT_V4" request
    Then the gateway accepts it
    And the request went to the base URL without a prefix
