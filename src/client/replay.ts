/**
 * `payconform replay`: a recorded merchant session sent again to a gateway, request by request, and
 * each answer compared with the recording's (HTTP status, type, order status, error code). Every
 * request is signed anew from the credentials given (a fresh nonce and timestamp: a replayed OAuth
 * header is rightly refused); the order ids the gateway gives replace the recorded ones in later
 * requests (a capture names the preauth this replay made). A card number a recording masked is
 * filled from the test card with the same first six and last four digits, a masked CVV with 123;
 * a card that is no test card is never sent.
 */
import { CARD_NUMBER_FIELDS, CVV_FIELDS, isTestCard, TEST_CARDS } from '../catalogue/test-cards.ts';
import type { Pair } from '../signing/form-body.ts';
import { answerFields, type HarContents, type RecordedAnswer } from '../report/har-read.ts';
import type { PayClient } from './client.ts';

/** The answer fields a replay compares: what an integration acts on, not what changes every run. */
export const COMPARED_FIELDS = ['type', 'status', 'error-code'] as const;

export interface ReplayResult {
  readonly index: number;
  readonly operation: string;
  readonly recorded: RecordedAnswer;
  /** The gateway's answer now, or why the request was not sent. */
  readonly replayed: RecordedAnswer | { readonly notSent: string };
  /** Each difference as "what: recorded → now"; empty when the answers agree. */
  readonly differences: readonly string[];
}

const MASKED_PAN = /^(\d{6})\*+(\d{4})$/;

/** The request's card fields as a test card and CVV, or why it cannot be sent. */
function withTestCard(params: readonly Pair[]): Pair[] | string {
  const out: Pair[] = [];
  for (const [name, value] of params) {
    if (CARD_NUMBER_FIELDS.has(name) && value !== '') {
      const masked = MASKED_PAN.exec(value);
      const card = masked
        ? Object.values(TEST_CARDS).find((c) => c.startsWith(masked[1] ?? '') && c.endsWith(masked[2] ?? ''))
        : value;
      if (card === undefined || !isTestCard(card)) return `${name} is no test card: payconform replays test cards only`;
      out.push([name, card]);
    } else if (CVV_FIELDS.has(name) && /^\*+$/.test(value)) out.push([name, '123']);
    else out.push([name, value]);
  }
  return out;
}

function differences(recorded: RecordedAnswer, now: RecordedAnswer): string[] {
  const out = recorded.status === now.status ? [] : [`HTTP ${recorded.status} → ${now.status}`];
  for (const field of COMPARED_FIELDS) {
    const [was, is] = [recorded.fields[field], now.fields[field]];
    // A recorded value is a stranger's text: shown cut short.
    if (was !== is) out.push(`${field}: ${was?.slice(0, 80) ?? '(none)'} → ${is?.slice(0, 80) ?? '(none)'}`);
  }
  return out;
}

function fieldsOf(body: unknown): Record<string, string> {
  if (typeof body === 'string') return answerFields(body);
  if (body === null || typeof body !== 'object') return {};
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export async function replay(
  contents: HarContents,
  client: PayClient,
  endpointId: string | undefined,
): Promise<ReplayResult[]> {
  const orderIds = new Map<string, string>();
  const results: ReplayResult[] = [];
  for (const request of contents.requests) {
    const { index, match, answer: recorded } = request;
    const operation = match.endpoint.operation;
    const params = withTestCard(
      request.params
        .filter(([name]) => name !== 'control')
        .map(([name, value]): Pair => [name, name === 'orderid' ? (orderIds.get(value) ?? value) : value]),
    );
    if (typeof params === 'string') {
      results.push({ index, operation, recorded, replayed: { notSent: params }, differences: [params] });
      continue;
    }
    let now: RecordedAnswer;
    try {
      const x = await client.send(operation, params, {
        endpointId: endpointId ?? match.endpointId,
        ...(match.group === true ? { groupUrl: true } : {}),
        // As recorded: a request sent without its Accept, or unsigned, on purpose stays so.
        headers: { accept: request.headers.accept ?? null, 'content-type': request.headers['content-type'] ?? null },
        unsigned: !request.signed,
      });
      now = { status: x.status, fields: fieldsOf(x.body) };
    } catch (err) {
      // No whole answer: recorded as HAR records one, status 0.
      now = { status: 0, fields: {} };
      if (recorded.status !== 0) {
        const why = (err as Error).message;
        results.push({ index, operation, recorded, replayed: now, differences: [`no answer now (${why})`] });
        continue;
      }
    }
    const was = recorded.fields['paynet-order-id'];
    const is = now.fields['paynet-order-id'];
    if (was !== undefined && is !== undefined) orderIds.set(was, is);
    results.push({ index, operation, recorded, replayed: now, differences: differences(recorded, now) });
  }
  return results;
}
