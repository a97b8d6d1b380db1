@area:auth @scheme:oauth-hmac-sha1
Feature: OAuth 1.0a with HMAC-SHA1 (payout)
  /api/v2/payout is signed with OAuth 1.0a, HMAC-SHA1, key = the percent-encoded control key and "&".
  The base string is POST & the normalised URL & the sorted, encoded parameters (body and oauth_*).

  @endpoint:PAYOUT @spec:authentication @money
  Scenario: a correctly signed payout is accepted
    When I send a signed "PAYOUT" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:PAYOUT @spec:authentication @negative @rule:signature-method
  Scenario: RSA-SHA256 on the HMAC-SHA1 endpoint is refused
    When I send a "PAYOUT" request signed with "RSA-SHA256"
    Then the gateway refuses it
    And the error code is "SIGNATURE_METHOD_WRONG"

  @endpoint:PAYOUT @spec:authentication @assumption @negative @A-22 @rule:oauth-timestamp-window
  Scenario: an oauth_timestamp 15 minutes old is refused
    When I send a signed "PAYOUT" request with an oauth_timestamp 900 seconds old
    Then the gateway refuses it
    And the error code is "TIMESTAMP_OUT_OF_WINDOW"

  # The spec states the rule (Limits: "The nonce must be unique per request"); the same request sent again at
  # once is a replay under any replay window, so the window it leaves open (A-22) does not decide here.
  @endpoint:PAYOUT @spec:authentication @negative @rule:nonce-unique
  Scenario: a replayed nonce is refused
    When I send a signed "PAYOUT" request
    And I send the same request again
    Then the first answer was accepted
    And the gateway refuses it
    And the error code is "NONCE_REPLAYED"

  @endpoint:PAYOUT @spec:authentication @negative @rule:consumer-key-known
  Scenario: an unknown consumer key is refused
    When I send a "PAYOUT" request signed with the consumer key "no-such-merchant"
    Then the gateway refuses it
    And the error code is "CONSUMER_KEY_UNKNOWN"

  @endpoint:PAYOUT @spec:authentication @negative @rule:oauth-header-present
  Scenario: oauth_* parameters only in the body, with no Authorization header, are refused
    When I send a signed "PAYOUT" request with its oauth_* parameters only in the body
    Then the gateway refuses it
    And the error code is "AUTH_HEADER_MISSING"

  @endpoint:PAYOUT @spec:authentication @assumption @money @A-26
  Scenario: oauth_* parameters repeated in the body, as in the spec's example, are accepted
    When I send a signed "PAYOUT" request with its oauth_* parameters repeated in the body
    Then the gateway accepts it

  @endpoint:PAYOUT @spec:authentication @money
  Scenario: a realm in the header is not signed and is accepted
    When I send a signed "PAYOUT" request with realm "payconform"
    Then the gateway accepts it

  @endpoint:PAYOUT @spec:authentication @negative @rule:oauth-signature
  Scenario Outline: a payout signed with the <mistake> mistake is refused
    When I send a "PAYOUT" request signed with the "<mistake>" mistake
    Then the gateway refuses it
    And the error code is "SIGNATURE_INVALID"

    Examples:
      | mistake                     |
      | double-encoding             |
      | plus-for-space              |
      | body-params-omitted         |
      | oauth-params-omitted        |
      | hmac-key-no-ampersand       |
      | hmac-sha256-instead-of-sha1 |

  @endpoint:PAYOUT @spec:authentication @money
  Scenario Outline: a payout with <what> in a signed value is accepted
    When I send a signed "PAYOUT" request with "card_printed_name" set to "<value>"
    Then the gateway accepts it

    Examples:
      | what           | value               |
      | a space        | JANE DOE            |
      | a plus sign    | A+B                 |
      | a percent sign | 100%                |
      | & and =        | a=b&c               |
      | unicode        | JÖRG 東京 🎉        |

  @endpoint:PAN_ELIGIBILITY_SEND @spec:authentication @negative @rule:signature-method
  Scenario: pan-eligibility/send also requires HMAC-SHA1
    When I send a "PAN_ELIGIBILITY_SEND" request signed with "RSA-SHA256"
    Then the gateway refuses it
    And the error code is "SIGNATURE_METHOD_WRONG"
