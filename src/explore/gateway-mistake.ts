/**
 * The gateway's own mistake, named (docs/certify.md, "The gateway's mistake"): diagnosis in reverse. Where a
 * gateway refused valid requests or accepted near-misses, each known mistake of the diagnose catalogue (C1:
 * MISTAKES, controlWithMistake, oauthHeaderWithMistake) is taken as the gateway's way of verifying: it accepts a
 * request exactly when the signature sent equals the one it computes under that mistake. The mistakes that predict
 * every verdict the gateway gave are named, each with a worked example in a request's own values.
 */
import type { Operation } from '../catalogue/index.ts';
import type { SentRequest } from '../client/client.ts';
import { toCents } from '../signing/cents.ts';
import { getParam, parseAuthorizationHeader } from '../signing/authorization-header.ts';
import { controlWithMistake, MISTAKES, oauthHeaderWithMistake } from '../signing/diagnose/index.ts';
import type { Credentials } from '../signing/request.ts';
import { signRequest } from '../signing/sign.ts';
import { oauthMethodOf, sentSignature, unsignedParams } from './cases.ts';

/** One request the gateway judged: what was sent, to which endpoint, and whether it was accepted. */
export interface Observation {
  readonly operation: Operation;
  readonly endpointId: string;
  readonly request: SentRequest;
  readonly accepted: boolean;
}

/** A mistake that reproduces every verdict seen, with a worked example. */
export interface GatewayMistake {
  readonly id: string;
  readonly title: string;
  readonly example: string;
}

/** The signature a gateway verifying under `mistake` ('none': as the spec says) expects for a request as sent. */
export function expectedUnder(mistake: string, o: Observation, credentials: Credentials): string | undefined {
  const params = unsignedParams(o.request);
  const input = { method: o.request.method, url: o.request.url, params };
  const method = oauthMethodOf(o.operation);
  if (method === undefined) {
    const wrong =
      mistake === 'none' ? undefined : controlWithMistake(mistake, o.operation, o.endpointId, input, credentials);
    if (wrong !== undefined) return wrong;
    const signed = signRequest(input, credentials);
    return signed.scheme === 'control' ? signed.control.control : undefined;
  }
  const header = parseAuthorizationHeader(o.request.headers.authorization ?? '');
  const fresh = { nonce: getParam(header, 'oauth_nonce') ?? '', timestamp: getParam(header, 'oauth_timestamp') ?? '' };
  const made =
    oauthHeaderWithMistake(mistake, { request: input, credentials, method, ...fresh }) ??
    oauthHeaderWithMistake('none', { request: input, credentials, method, ...fresh });
  return made === undefined ? undefined : getParam(parseAuthorizationHeader(made), 'oauth_signature');
}

/** Whether a gateway verifying under `mistake` accepts the request: the signature sent is the one it expects. */
export const acceptedUnder = (mistake: string, o: Observation, credentials: Credentials): boolean =>
  sentSignature(o.request) !== undefined && sentSignature(o.request) === expectedUnder(mistake, o, credentials);

/** Worked examples in the request's own amount, for the mistakes about cents. */
const CENTS_EXAMPLES: Readonly<Record<string, (amount: string) => string>> = {
  'decimal-amount': (a) =>
    `the gateway signs the amount as sent, not in cents: ${a} → "${a}", where the spec signs ${toCents(a)}`,
  'truncated-cents': (a) => `the gateway computes cents as (int)(amount×100): ${a} → ${Math.trunc(Number(a) * 100)}`,
  'float-cents': (a) => `the gateway computes cents as amount×100 in floating point: ${a} → ${Number(a) * 100}`,
};

function exampleOf(id: string, title: string, decisive: Observation | undefined, accepted: boolean): string {
  const amount = decisive?.request.params.find(([n]) => n === 'amount')?.[1];
  const cents = CENTS_EXAMPLES[id];
  if (cents !== undefined && amount !== undefined) return cents(amount);
  if (decisive === undefined) return `the gateway verifies as if: ${title}`;
  return (
    `the gateway verifies as if: ${title}; so it ${accepted ? 'accepted' : 'refused'} a ${decisive.operation} ` +
    `that the spec says it must ${accepted ? 'refuse' : 'accept'}`
  );
}

/** The verdicts looked at: the last ones (the shrunk failing run, the probes made from it): a short search. */
export const MAX_OBSERVATIONS = 48;

/**
 * The known mistakes that reproduce every verdict in `seen` (its last MAX_OBSERVATIONS; none where the gateway
 * verifies as the spec says, or where no known mistake explains all it did). Each names its example from a request
 * on which that mistake and the spec disagree. The verdicts the spec does not predict come first, so a mistake that
 * cannot explain them is dropped after a signature or two.
 */
export function gatewayMistakes(seen: readonly Observation[], credentials: Credentials): GatewayMistake[] {
  const judged = seen.filter((o) => sentSignature(o.request) !== undefined).slice(-MAX_OBSERVATIONS);
  const spec = judged.map((o) => acceptedUnder('none', o, credentials));
  if (judged.length === 0 || judged.every((o, i) => spec[i] === o.accepted)) return [];
  const order = judged
    .map((_, i) => i)
    .sort((a, b) => Number(spec[a] === judged[a]?.accepted) - Number(spec[b] === judged[b]?.accepted));
  const scheme = judged.every((o) => oauthMethodOf(o.operation) === undefined) ? 'control' : 'oauth';
  // A wrong field value (amount-value-wrong) is the partner's, not a way a gateway verifies: never named here.
  return MISTAKES.filter((m) => m.scheme === scheme && m.wrongValue === undefined).flatMap((m) => {
    const predicted = new Map<number, boolean>();
    for (const i of order) {
      const o = judged[i];
      if (o === undefined) continue;
      const verdict = acceptedUnder(m.id, o, credentials);
      if (verdict !== o.accepted) return [];
      predicted.set(i, verdict);
    }
    // The last such request: the shrunk failing one, or a probe made from it.
    const at = Math.max(...[...predicted].filter(([i, v]) => v !== spec[i]).map(([i]) => i), -1);
    return [{ id: m.id, title: m.title, example: exampleOf(m.id, m.title, judged[at], predicted.get(at) ?? false) }];
  });
}

/** The named mistakes as a line of a finding and the certification page. */
export function gatewayMistakeLine(named: readonly GatewayMistake[]): string {
  if (named.length === 0) return 'no known mistake reproduces every verdict the gateway gave';
  const each = named.map((m) => `${m.id} (${m.example})`);
  return `the gateway's own mistake, reproducing every verdict it gave: ${each.join('; or ')}`;
}
