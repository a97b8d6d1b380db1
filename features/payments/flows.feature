@area:payments @scheme:control
Feature: payment flows: preauth, capture, return, void
  A preauth reserves an amount; capture takes up to it; returns give back up to what was captured;
  void cancels an unsettled sale or preauth. An illegal move is refused and changes nothing.

  @endpoint:PREAUTH @endpoint:CAPTURE @endpoint:RETURN @spec:flows @money @assumption @negative @A-23 @rule:return-within-paid
  Scenario: preauth, partial capture, partial return, return of the rest, then nothing more
    Given an approved "PREAUTH" order of "10.00"
    When I send a signed "CAPTURE" request with:
      | amount | 6.00 |
    Then the gateway accepts it
    When I send a signed "RETURN" request with:
      | amount | 2.00 |
    Then the gateway accepts it
    When I send a signed "RETURN" request with:
      | amount | 4.00 |
    Then the gateway accepts it
    When I send a signed "RETURN" request with:
      | amount | 0.01 |
    Then the gateway refuses it
    And the error code is "AMOUNT_EXCEEDS"

  @endpoint:PREAUTH @endpoint:CAPTURE @spec:flows @money @assumption @negative @A-23 @rule:capture-within-authorised
  Scenario: a capture above the authorised amount is refused
    # Both amounts under PAYCONFORM_MAX_AMOUNT, which a live run never exceeds: half the cap, then a cent more.
    Given an approved "PREAUTH" order of half the amount cap
    When I send a signed "CAPTURE" request for a cent more than that order
    Then the gateway refuses it
    And the error code is "AMOUNT_EXCEEDS"

  @endpoint:SALE @endpoint:RETURN @spec:flows @money @assumption @negative @A-23 @rule:return-within-paid
  Scenario: a refund above the sale amount is refused
    Given an approved "SALE" order of "5.00"
    When I send a signed "RETURN" request with:
      | amount | 5.01 |
    Then the gateway refuses it
    And the error code is "AMOUNT_EXCEEDS"

  @endpoint:SALE @endpoint:RETURN @spec:flows @money @assumption @negative @A-23 @A-36 @rule:return-within-paid
  Scenario: a return without amount reverses the whole sale, and leaves nothing to return
    # The return page: amount "If this parameter is omitted, initial transaction is reversed as a whole."
    Given an approved "SALE" order of "5.00"
    When I send a signed "RETURN" request
    Then the gateway accepts it
    When I send a signed "RETURN" request with:
      | amount | 0.01 |
    Then the gateway refuses it
    And the error code is "AMOUNT_EXCEEDS"

  @endpoint:SALE @endpoint:VOID @spec:flows @money @assumption @negative @A-23 @rule:order-not-voided
  Scenario: sale then void; a second void and a return after it are refused
    Given an approved "SALE" order of "3.00"
    When I send a signed "VOID" request
    Then the gateway accepts it
    When I send a signed "VOID" request
    Then the gateway refuses it
    And the error code is "ORDER_STATE"
    When I send a signed "RETURN" request with:
      | amount | 1.00 |
    Then the gateway refuses it
    And the error code is "ORDER_STATE"

  @endpoint:PREAUTH @endpoint:VOID @endpoint:CAPTURE @spec:flows @money @assumption @negative @A-23 @rule:order-not-voided
  Scenario: a capture after void is refused
    Given an approved "PREAUTH" order of "4.00"
    When I send a signed "VOID" request
    Then the gateway accepts it
    When I send a signed "CAPTURE" request with:
      | amount | 4.00 |
    Then the gateway refuses it
    And the error code is "ORDER_STATE"

  @endpoint:PREAUTH @endpoint:CAPTURE @spec:flows @mock-only @assumption @negative @A-23 @rule:order-approved
  Scenario: a declined preauth cannot be captured
    Given a "PREAUTH" order paid with the "declined" test card
    Then the kept order ends "declined"
    When I send a signed "CAPTURE" request
    Then the gateway refuses it
    And the error code is "ORDER_STATE"

  @endpoint:SALE @endpoint:STATUS @spec:flows @money @assumption @A-40
  Scenario: a paid sale's status names its transaction type, which shop plugins book the order by
    Given an approved "SALE" order of "2.00"
    Then its status names the transaction type "sale"

  @endpoint:SALE @spec:flows @mock-only @assumption @A-23
  Scenario Outline: a sale with the <card> test card ends <status>
    When I send a signed "SALE" request paid with the "<card>" test card
    Then the gateway accepts it
    And the order ends "<status>"

    Examples:
      | card          | status   |
      | approved      | approved |
      | declined      | declined |
      | gateway error | error    |

  @endpoint:SALE @spec:errors @mock-only @assumption @A-21
  Scenario: a ServerErrorResponse (500) is recognised as one
    When I send a signed "SALE" request with:
      | client_orderid | MOCK-SERVER-ERROR |
    Then the gateway answers with a server error
