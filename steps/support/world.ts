/**
 * The World of a scenario: the shared client and target, the exchanges this scenario made (attached,
 * redacted, when a step fails) and the ids earlier steps created ("the order", "the card reference").
 * Every request goes through `send`, which enforces the live-run safety rules before anything leaves.
 */
import { World, setWorldConstructor, type IWorldOptions } from '@cucumber/cucumber';
import { endpointByOperation, PREREQUISITES } from '../../src/catalogue/index.ts';
import { answerText, errorCodeOf } from '../../src/client/answer-field.ts';
import {
  buildRequest,
  type Exchange,
  type PayClient,
  type SendOptions,
  type SentRequest,
} from '../../src/client/client.ts';
import { prepareRequest } from '../../src/client/prepare.ts';
import type { FindingExchange } from '../../src/report/findings.ts';
import { credentialSecrets, redactAttachment, redactEchoes } from '../../src/report/redact.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { liveSendProblem } from '../../src/suite/live-safety.ts';
import { CARD_NUMBER_FIELDS, TEST_CARDS } from '../../src/catalogue/test-cards.ts';
import { profileCard, type AnswerField, type Profile } from '../../src/suite/profile.ts';
import type { Target } from '../../src/suite/target.ts';
import { expectThat, type Expectation, type Judge } from './verdict.ts';

/** Set by the hooks before the first scenario, from the run's target: one kept-alive client for every scenario. */
export const shared: { target?: Target; client?: PayClient; baseUrl?: string; runId: string; counter: number } = {
  runId: Date.now().toString(36).toUpperCase(),
  counter: 0,
};

/** An answer for a failure message, with any echoed card number or control key hidden. */
export function shown(x: Exchange): string {
  const text = typeof x.body === 'string' ? x.body.slice(0, 300) : JSON.stringify(x.body);
  return `${x.operation} answered ${x.status}: ${redactEchoes(text, x.request.params, [shared.target?.credentials.controlKey])}`;
}

export class PayWorld extends World implements Judge {
  readonly exchanges: Exchange[] = [];
  /** The scenario's @A-n tags (set by the Before hook): its whole premise is an assumption. */
  premise: readonly string[] = [];
  ended = false;
  private ownClient: PayClient | undefined;
  /** Ids earlier steps made, by the request field that names them: orderid, cardrefid, recurring-payment-id. */
  readonly known = new Map<string, string>();
  /** Where this scenario's signed requests go unless a step says otherwise: the endpoint group's own URL, say. */
  sendDefaults: SendOptions = {};
  /** The hosted page as it answered the customer's payment (its return form, A-31). */
  paidPage: string | undefined;

  constructor(options: IWorldOptions) {
    // Everything attached (exchanges, warnings, not-applicable reasons) is redacted here, at the one door to
    // cucumber's messages, from which every report file and the console are made.
    const world: { self?: PayWorld } = {};
    const redacted = (data: string, mediaType = 'text/plain'): string =>
      world.self?.redact(data, mediaType) ??
      redactAttachment(data, mediaType, [], credentialSecrets(shared.target?.credentials));
    const attach = (data: unknown, media?: string | { mediaType: string }, ...rest: unknown[]): unknown =>
      Reflect.apply(options.attach, undefined, [
        typeof data === 'string' ? redacted(data, typeof media === 'string' ? media : media?.mediaType) : data,
        media,
        ...rest,
      ]);
    super({ ...options, attach: attach as IWorldOptions['attach'] });
    world.self = this;
  }

  /**
   * Text as it may be attached or shown: the merchant's secrets replaced and the card data of this
   * scenario's requests (and any other card number or CVV) masked, however the gateway wrote them.
   */
  redact(text: string, mediaType = 'text/plain'): string {
    const pairs = this.exchanges.flatMap((x) => x.request.params);
    return redactAttachment(text, mediaType, pairs, credentialSecrets(shared.target?.credentials));
  }

  get target(): Target {
    return shared.target!;
  }
  get strict(): boolean {
    return this.target.strict;
  }
  get profile(): Profile {
    return this.target.profile;
  }

  /**
   * Judges one expectation (steps/support/verdict.ts): a failure, a warning, or nothing. A check that
   * quotes an answer (its detail) is about the scenario's last exchange, unless it names its own; one that
   * quotes none (a callback's, an order's status) names no exchange.
   */
  expect(met: boolean, e: Expectation): boolean {
    const last = this.exchanges.at(-1);
    if (met || e.exchange !== undefined || e.detail === undefined || last === undefined)
      return expectThat(this, met, e);
    return expectThat(this, met, { ...e, exchange: this.seen(last) });
  }

  /** An exchange as a finding shows it: operation, status and the answer's error code (the profile's name). */
  seen(x: Exchange): FindingExchange {
    const errorCode = errorCodeOf(x.body, this.answerName('error-code'));
    return { operation: x.operation, status: x.status, ...(errorCode === undefined ? {} : { errorCode }) };
  }
  get client(): PayClient {
    return this.ownClient ?? shared.client!;
  }

  /** A client of this scenario's own (a second gateway), in place of the run's. */
  useClient(client: PayClient): void {
    this.ownClient = client;
  }

  /** The exchange a finding shows when a step throws (steps/support/verdict.ts): the scenario's last, if any. */
  lastSeen(): FindingExchange | undefined {
    const last = this.exchanges.at(-1);
    return last === undefined ? undefined : this.seen(last);
  }

  get last(): Exchange {
    const last = this.exchanges.at(-1);
    if (!last) throw new Error('no request was sent yet in this scenario');
    return last;
  }

  /** A client order id unique to this run, as real gateways expect. */
  freshOrderId(): string {
    return `PC-${shared.runId}-${++shared.counter}`;
  }

  /** A valid request of `operation`: known ids first, then prerequisites created on the way, then `overrides`. */
  async requestFor(name: string, overrides: readonly Pair[] = []): Promise<Pair[]> {
    const { operation } = endpointByOperation(name);
    const prerequisite = PREREQUISITES[operation];
    const known = prerequisite ? this.known.get(prerequisite.field) : undefined;
    const given: Pair[] =
      prerequisite && known !== undefined && !overrides.some(([n]) => n === prerequisite.field)
        ? [[prerequisite.field, known], ...overrides]
        : [...overrides];
    return prepareRequest(
      this.client,
      operation,
      given,
      () => this.freshOrderId(),
      (name, example) => this.sampleValue(name, example),
    );
  }

  /** The name this gateway gives an answer field the mock names `name`. */
  answerName(name: string): string {
    return this.profile.answerFields[name as AnswerField] ?? name;
  }

  /** A test card by its role, as this gateway's profile gives it: features never spell a card number. */
  card(role: string): string {
    return profileCard(this.profile, role);
  }

  /** The profile's approved card and default amount in place of the schema's examples. */
  private sampleValue(name: string, example: string): string {
    if (CARD_NUMBER_FIELDS.has(name) && example === TEST_CARDS.approved) return this.profile.testCards.approved;
    if (name === 'amount' && this.profile.amounts.default !== undefined) return this.profile.amounts.default;
    return example;
  }

  build(operation: string, params: readonly Pair[], options: SendOptions = {}): SentRequest {
    return buildRequest(endpointByOperation(operation), this.client.options, params, options);
  }

  /** Sends a built request, after the live-run checks; records it for the failure attachments. */
  async send(operation: string, request: SentRequest): Promise<Exchange> {
    if (this.target.live) this.checkLiveSafety(request.params);
    const exchange = await this.client.exchange(operation, request);
    this.exchanges.push(exchange);
    return exchange;
  }

  async sendSigned(operation: string, params: readonly Pair[], options: SendOptions = {}): Promise<Exchange> {
    const unsigned = endpointByOperation(operation).auth.kind === 'unstated';
    return this.send(operation, this.build(operation, params, { unsigned, ...this.sendDefaults, ...options }));
  }

  /** A live run sends documented test cards only, and amounts at most PAYCONFORM_MAX_AMOUNT. */
  private checkLiveSafety(params: readonly Pair[]): void {
    const problem = liveSendProblem(params, this.target.maxAmountCents, Object.values(this.profile.testCards));
    if (problem !== undefined) throw new Error(problem);
  }

  /**
   * An answer field by the name the mock gives it, read under the name this gateway's profile
   * gives it, as text (answerText). The spec names no status either, so a status is compared in lower case.
   */
  answer(name: string, exchange: Exchange = this.last): string | undefined {
    const value = answerText((exchange.body as Record<string, unknown> | null)?.[this.answerName(name)]);
    return name === 'status' ? value?.toLowerCase() : value;
  }
}

setWorldConstructor(PayWorld);
