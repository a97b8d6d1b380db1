@area:auth @scheme:oauth-rsa-sha256
Feature: OAuth 1.0a with RSA-SHA256 (every /api/v4/ endpoint)
  /api/v4/ endpoints are signed with RSA-SHA256 over the same base string, with the merchant's
  private key; the gateway verifies with the public key registered for the merchant.

  @endpoint:PAYOUT_V4 @spec:authentication @negative @rule:signature-method
  Scenario: HMAC-SHA1 on an RSA-SHA256 endpoint is refused
    When I send a "PAYOUT_V4" request signed with "HMAC-SHA1"
    Then the gateway refuses it
    And the error code is "SIGNATURE_METHOD_WRONG"

  @endpoint:PAYOUT_V4 @spec:authentication @assumption @negative @A-22 @rule:oauth-timestamp-window
  Scenario: an oauth_timestamp 15 minutes in the past is refused
    When I send a signed "PAYOUT_V4" request with an oauth_timestamp 900 seconds old
    Then the gateway refuses it
    And the error code is "TIMESTAMP_OUT_OF_WINDOW"

  # The spec states the rule (Limits: "The nonce must be unique per request"); the same request sent again at
  # once is a replay under any replay window, so the window it leaves open (A-22) does not decide here.
  @endpoint:PAYOUT_V4 @spec:authentication @negative @rule:nonce-unique
  Scenario: a replayed nonce is refused
    When I send a signed "PAYOUT_V4" request
    And I send the same request again
    Then the first answer was accepted
    And the gateway refuses it
    And the error code is "NONCE_REPLAYED"

  @endpoint:PAYOUT_V4 @spec:authentication @negative @rule:consumer-key-known
  Scenario: an unknown consumer key is refused
    When I send a "PAYOUT_V4" request signed with the consumer key "no-such-merchant"
    Then the gateway refuses it
    And the error code is "CONSUMER_KEY_UNKNOWN"

  @endpoint:PAYOUT_V4 @spec:authentication @negative @rule:oauth-header-present
  Scenario: oauth_* parameters only in the body are refused
    When I send a signed "PAYOUT_V4" request with its oauth_* parameters only in the body
    Then the gateway refuses it
    And the error code is "AUTH_HEADER_MISSING"

  @endpoint:PAYOUT_V4 @spec:authentication @money
  Scenario: a realm in the header is accepted
    When I send a signed "PAYOUT_V4" request with realm "payconform"
    Then the gateway accepts it

  @endpoint:PAYOUT_V4 @spec:authentication @negative @rule:oauth-signature
  Scenario Outline: a v4 payout signed with the <mistake> mistake is refused
    When I send a "PAYOUT_V4" request signed with the "<mistake>" mistake
    Then the gateway refuses it
    And the error code is "SIGNATURE_INVALID"

    Examples:
      | mistake                    |
      | double-encoding            |
      | plus-for-space             |
      | body-params-omitted        |
      | rsa-sha1-instead-of-sha256 |

  @endpoint:TRANSFER_V4 @spec:authentication @money
  Scenario Outline: a transfer with <what> in a signed value is accepted
    When I send a signed "TRANSFER_V4" request with "order_desc" set to "<value>"
    Then the gateway accepts it

    Examples:
      | what           | value                 |
      | a space        | Rent November         |
      | a plus sign    | 1+1                   |
      | a percent sign | 5% off                |
      | & and =        | ref=42&x              |
      | unicode        | Überweisung 東京 🎉   |
