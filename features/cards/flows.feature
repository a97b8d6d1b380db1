@area:cards
Feature: card references and rebills
  A card reference stands for a card the gateway has seen; rebills charge it without card data.

  @endpoint:SALE @endpoint:CARDREF @endpoint:REBILL @scheme:control @spec:flows @money @assumption @A-27
  Scenario: sale, card reference, rebill
    Given an approved "SALE" order of "2.00"
    When I send a signed "CARDREF" request
    Then the gateway accepts it
    When I keep the "card-ref-id" of the answer
    And I send a signed "REBILL" request with:
      | amount | 1.50 |
    Then the gateway accepts it
    And the order ends "approved"

  @endpoint:CARDREF_V4 @endpoint:CARDINFO @scheme:oauth-rsa-sha256 @spec:flows @assumption @A-27
  Scenario: a v4 card reference, then its card info shows the masked card only
    When I send a signed "CARDREF_V4" request
    Then the gateway accepts it
    When I keep the "card-ref-id" of the answer
    And I send a signed "CARDINFO" request
    Then the gateway accepts it
    And the answer carries a "last-four-digits"

  @endpoint:REBILL @scheme:control @spec:flows @assumption @negative @A-27 @rule:reference-known
  Scenario: a rebill with an unknown card reference is refused
    When I send a signed "REBILL" request with:
      | cardrefid | 1 |
    Then the gateway refuses it
    And the error code is "CARD_REF_UNKNOWN"
