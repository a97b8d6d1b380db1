/**
 * Judges each request a merchant's integration sends, check by check (src/inspect/checks.ts), with
 * the state that spans requests: nonces seen, client order ids started, status checks since. Every
 * rule is the project's one implementation (catalogue, request schemas, cents, diagnose); this file
 * only runs all of them, where the mock stops at the first problem.
 */
import { matchPath, PREREQUISITES, type PathMatch } from '../catalogue/index.ts';
import { isPayconformError } from '../errors.ts';
import { ownerOf } from '../mock/authenticate.ts';
import type { Merchant } from '../mock/merchants.ts';
import { NonceStore } from '../mock/nonces.ts';
import { MEDIA_TYPE } from '../mock/server.ts';
import { checkRequestFields, requestSchemaOf } from '../schemas/index.ts';
import { getParam, parseAuthorizationHeader, type ParsedAuthorization } from '../signing/authorization-header.ts';
import { toCents } from '../signing/cents.ts';
import { diagnose } from '../signing/diagnose/index.ts';
import { explain, explanationText } from '../signing/explain.ts';
import { decodeForm, type Pair } from '../signing/form-body.ts';
import { signRequest } from '../signing/sign.ts';
import { CHECK_IDS, type CheckId } from './checks.ts';

export interface SeenRequest {
  readonly method: string;
  /** The URL the signature must cover: the origin the client addressed, the path and query as sent. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer;
  /** Another URL an OAuth signature may have been made for: the sandbox the request is forwarded to. */
  readonly alsoSignedFor?: string;
}

export interface SignatureDetail {
  readonly scheme: string;
  /** Diagnosis ids (docs/diagnoses.md) that reproduce the value sent; empty when valid or unexplained. */
  readonly diagnoses: readonly string[];
  /** What the signature should cover (the control key shown as a placeholder). */
  readonly correct?: { readonly baseString?: string; readonly controlInput?: string };
  /** What the integration signed, under the first diagnosis. */
  readonly sent?: { readonly baseString?: string; readonly controlInput?: string };
  /** The correct signature step by step (control and HMAC-SHA1; the signature values themselves left out). */
  readonly explanation?: string;
}

export interface CheckVerdict {
  readonly id: CheckId;
  readonly outcome: 'pass' | 'fail' | 'skip';
  /** Why it failed or was skipped; never a secret. */
  readonly message?: string;
  readonly signature?: SignatureDetail;
}

export interface RequestVerdict {
  readonly operation?: string;
  readonly endpointId?: string;
  readonly merchant?: string;
  readonly clientOrderId?: string;
  readonly checks: readonly CheckVerdict[];
  readonly passed: boolean;
}

export interface InspectorSettings {
  readonly merchants: readonly Merchant[];
  readonly windowSeconds?: number;
  readonly now?: () => number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Steps whose value is the signature itself: a secret in reports, like the Authorization header. */
const SIGNATURE_STEPS = new Set(['digest', 'signature', 'authorization']);
const field = (params: readonly Pair[], name: string): string | undefined => params.find(([n]) => n === name)?.[1];
const clientOrderIdOf = (params: readonly Pair[]): string | undefined => field(params, 'client_orderid') ?? field(params, 'client-order-id');
/** An operation that starts a new order rather than acting on an existing one (capture, void, …). */
const startsOrder = (operation: keyof typeof PREREQUISITES): boolean => PREREQUISITES[operation]?.field !== 'orderid';

export class Inspector {
  private readonly nonces: NonceStore;
  private readonly windowSeconds: number;
  private readonly now: () => number;
  /** merchant \0 client order id → whether status was asked for it since it was last sent. */
  private readonly started = new Map<string, { statusSince: boolean }>();

  constructor(private readonly settings: InspectorSettings) {
    this.windowSeconds = settings.windowSeconds ?? 300;
    this.now = settings.now ?? Date.now;
    this.nonces = new NonceStore(this.windowSeconds);
  }

  judge(seen: SeenRequest): RequestVerdict {
    const verdicts = new Map<CheckId, CheckVerdict>();
    const set = (id: CheckId, outcome: CheckVerdict['outcome'], message?: string, extra: Partial<CheckVerdict> = {}): void => {
      verdicts.set(id, { id, outcome, ...(message === undefined ? {} : { message }), ...extra });
    };
    set('method', seen.method === 'POST' ? 'pass' : 'fail', seen.method === 'POST' ? undefined : `sent as ${seen.method.slice(0, 10)}`);
    const accept = seen.headers.accept?.trim();
    set('accept', accept === MEDIA_TYPE ? 'pass' : 'fail', accept === MEDIA_TYPE ? undefined : accept === undefined ? 'no Accept header' : `Accept is ${JSON.stringify(accept.slice(0, 60))}`);
    const contentType = (seen.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    set('content-type', contentType === 'application/x-www-form-urlencoded' ? 'pass' : 'fail', contentType === 'application/x-www-form-urlencoded' ? undefined : `Content-Type is ${JSON.stringify(contentType || 'missing')}`);

    const pathname = new URL(seen.url).pathname;
    let match: PathMatch | undefined;
    let merchant: Merchant | undefined;
    try {
      match = matchPath(pathname);
      merchant = ownerOf(match.endpoint, match.endpointId, this.settings.merchants);
      set('endpoint', 'pass');
    } catch (err) {
      set('endpoint', 'fail', (err as Error).message);
    }

    const params = this.decodeBody(seen.body, set);
    if (match && merchant && params) this.judgeRequest(seen, match, merchant, params, set);
    for (const id of CHECK_IDS) if (!verdicts.has(id)) set(id, 'skip', 'not reached: an earlier check of this request failed, or it does not apply');

    const checks = CHECK_IDS.map((id) => verdicts.get(id)!);
    return {
      ...(match ? { operation: match.endpoint.operation, endpointId: match.endpointId } : {}),
      ...(merchant ? { merchant: merchant.login } : {}),
      ...(params && clientOrderIdOf(params) !== undefined ? { clientOrderId: clientOrderIdOf(params)! } : {}),
      checks,
      passed: checks.every((c) => c.outcome !== 'fail'),
    };
  }

  private decodeBody(body: Buffer, set: (id: CheckId, outcome: CheckVerdict['outcome'], message?: string) => void): Pair[] | undefined {
    let params: Pair[];
    try {
      params = decodeForm(utf8.decode(body));
    } catch (err) {
      set('form-encoding', 'fail', isPayconformError(err) ? err.message : 'the body is not UTF-8');
      return undefined;
    }
    // A value that still holds %XX after decoding was almost surely encoded twice.
    const twice = params.find(([, value]) => /%[0-9A-Fa-f]{2}/.test(value));
    set('form-encoding', twice ? 'fail' : 'pass', twice ? `${twice[0]}: still percent-encoded after decoding (encoded twice?)` : undefined);
    return params;
  }

  private judgeRequest(seen: SeenRequest, match: PathMatch, merchant: Merchant, params: Pair[], set: (id: CheckId, outcome: CheckVerdict['outcome'], message?: string, extra?: Partial<CheckVerdict>) => void): void {
    const { endpoint } = match;
    const schema = requestSchemaOf(endpoint);
    const problem = schema === undefined ? undefined : checkRequestFields(schema, params.filter(([n]) => n !== 'control' && !n.startsWith('oauth_')));
    set('fields', problem ? 'fail' : 'pass', problem?.message);

    const amount = field(params, 'amount');
    if (amount === undefined) set('amount', 'skip', 'no amount in this request');
    else {
      try {
        toCents(amount);
        set('amount', 'pass');
      } catch (err) {
        set('amount', 'fail', (err as Error).message);
      }
    }

    const oauthInBody = params.filter(([n]) => n.startsWith('oauth_')).map(([n]) => n);
    set('oauth-in-body', oauthInBody.length ? 'fail' : 'pass', oauthInBody.length ? `${[...new Set(oauthInBody)].join(', ')} in the form body` : undefined);

    this.judgeSignature(seen, match, merchant, params, set);
    this.judgeOrderId(match, merchant, params, set);
  }

  private judgeSignature(seen: SeenRequest, match: PathMatch, merchant: Merchant, params: Pair[], set: (id: CheckId, outcome: CheckVerdict['outcome'], message?: string, extra?: Partial<CheckVerdict>) => void): void {
    const { endpoint } = match;
    if (endpoint.auth.kind === 'unstated') {
      set('signature', 'skip', 'the spec states no authentication for this endpoint (A-24)');
      return;
    }
    const authorization = seen.headers.authorization;
    if (endpoint.auth.kind !== 'control') {
      if (authorization === undefined) {
        set('signature', 'fail', 'no Authorization header: this endpoint needs an OAuth 1.0a signature');
        return;
      }
      this.judgeOAuthProtocol(authorization, merchant, set);
    }
    const credentials = { login: merchant.login, controlKey: merchant.merchantControlKey, publicKeyPem: merchant.publicKeyPem };
    try {
      const diagnosisFor = (url: string) => diagnose({ request: { method: 'POST', url, params, match }, credentials, given: { authorization } });
      let d = diagnosisFor(seen.url);
      if (d.verdict === 'invalid' && seen.alsoSignedFor !== undefined && endpoint.auth.kind !== 'control') {
        const upstream = diagnosisFor(seen.alsoSignedFor);
        if (upstream.verdict === 'valid') d = upstream;
      }
      const detail: SignatureDetail = { scheme: d.scheme, diagnoses: d.defects, correct: d.correct, ...(d.partner ? { sent: d.partner } : {}) };
      if (d.verdict === 'valid') set('signature', 'pass', undefined, { signature: detail });
      else set('signature', 'fail', d.message, { signature: { ...detail, ...this.explanation(seen, params, merchant, authorization) } });
    } catch (err) {
      if (!isPayconformError(err)) throw err;
      set('signature', 'fail', err.message);
    }
  }

  /** The correct signature's steps, where the inspector holds the secret to make it (not RSA). */
  private explanation(seen: SeenRequest, params: Pair[], merchant: Merchant, authorization: string | undefined): { explanation?: string } {
    let header: ParsedAuthorization | undefined;
    try {
      header = authorization === undefined ? undefined : parseAuthorizationHeader(authorization);
    } catch {
      return {};
    }
    if (header !== undefined && getParam(header, 'oauth_signature_method') === 'RSA-SHA256') return {};
    try {
      const result = signRequest({ method: 'POST', url: seen.url, params: params.filter(([n]) => n !== 'control') }, { login: merchant.login, controlKey: merchant.merchantControlKey }, {
        ...(header ? { nonce: getParam(header, 'oauth_nonce'), timestamp: getParam(header, 'oauth_timestamp') } : {}),
      });
      const e = explain(result);
      return { explanation: explanationText({ ...e, steps: e.steps.filter((s) => !SIGNATURE_STEPS.has(s.step)) }) };
    } catch {
      return {}; // a request the formula cannot be computed for: the fields check says why
    }
  }

  private judgeOAuthProtocol(authorization: string, merchant: Merchant, set: (id: CheckId, outcome: CheckVerdict['outcome'], message?: string) => void): void {
    let parsed: ParsedAuthorization;
    try {
      parsed = parseAuthorizationHeader(authorization);
    } catch {
      return; // the signature check reports the malformed header
    }
    const nonce = getParam(parsed, 'oauth_nonce');
    const timestamp = Number(getParam(parsed, 'oauth_timestamp'));
    const now = Math.floor(this.now() / 1000);
    const fresh = Number.isInteger(timestamp) && Math.abs(now - timestamp) <= this.windowSeconds;
    set('oauth-timestamp', fresh ? 'pass' : 'fail', fresh ? undefined : `oauth_timestamp is ${Number.isInteger(timestamp) ? `${now - timestamp} s away from this clock` : 'not a whole number'} (window ±${this.windowSeconds} s)`);
    if (nonce === undefined) set('oauth-nonce', 'fail', 'no oauth_nonce');
    else {
      const unique = this.nonces.remember(merchant.login, nonce, Number.isInteger(timestamp) ? timestamp : now, now);
      set('oauth-nonce', unique ? 'pass' : 'fail', unique ? undefined : 'this oauth_nonce was already used within the timestamp window');
    }
  }

  private judgeOrderId(match: PathMatch, merchant: Merchant, params: Pair[], set: (id: CheckId, outcome: CheckVerdict['outcome'], message?: string) => void): void {
    const id = clientOrderIdOf(params);
    const operation = match.endpoint.operation;
    if (id === undefined) return;
    const key = `${merchant.login}\u0000${id}`;
    if (operation === 'STATUS') {
      const order = this.started.get(key);
      if (order) order.statusSince = true;
      return;
    }
    if (!startsOrder(operation)) return;
    const earlier = this.started.get(key);
    set('order-id-unique', earlier ? 'fail' : 'pass', earlier ? `client order id ${JSON.stringify(id.slice(0, 40))} was already used by this merchant` : undefined);
    set('no-blind-retry', earlier && !earlier.statusSince ? 'fail' : 'pass', earlier && !earlier.statusSince ? 'sent again with no status request for the order in between' : undefined);
    this.started.set(key, { statusSince: false });
  }
}
