/**
 * The merchant control key is a secret: the spec appends it last to the control's input and never sends it
 * (Scheme A rule 4). A request that carries it, in a form field, the query or a header, plain or percent-encoded,
 * hands it to every proxy and log between shop and gateway: the loudest finding inspect gives (severity critical),
 * and the mock refuses it before any other body rule. The evidence names where the key stood, never the key.
 */
import type { RequestUnderTest } from './request.ts';
import { fail, PASS, type Outcome, type Rule } from './rule.ts';

/**
 * The shortest key looked for: a shorter one ("k" in a test's merchants file) cannot be told from ordinary text, and
 * looking for it would refuse every request that happens to hold it. Real keys are long random strings.
 */
export const MIN_KEY_CHARS = 8;

/** How much of a field or header name the evidence quotes: a name is the sender's text. */
const NAME_CHARS = 60;

/**
 * The ways a text may hold the key: as sent, then decoded as a form decodes (`+` a space, percent-escapes),
 * up to three times (a value encoded twice, as in a base string). A malformed escape is left as it stands.
 */
export function readingsOf(text: string): string[] {
  const readings = [text];
  let current = text;
  for (let round = 0; round < 3 && /%[0-9a-f]{2}|\+/i.test(current); round++) {
    current = current.replace(/\+/g, ' ').replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => {
      try {
        return decodeURIComponent(escapes);
      } catch {
        return escapes;
      }
    });
    readings.push(current);
  }
  return readings;
}

const holds = (text: string, keys: readonly string[]): boolean =>
  readingsOf(text).some((reading) => keys.some((key) => reading.includes(key)));

/** Where the key stood, in words, and the name of the field or header that held it where it may be quoted. */
export interface KeySent {
  readonly words: string;
  readonly name?: string;
}

/** A field or header named as the evidence may quote it: cut short, and never when its name holds the key. */
function named(name: string, keys: readonly string[], what: string): KeySent {
  if (holds(name, keys)) return { words: `a ${what} whose name holds it` };
  const shown = (readingsOf(name).at(-1) ?? name).slice(0, NAME_CHARS);
  return { words: `the ${what} ${JSON.stringify(shown)}`, name: shown };
}

/** Where in `name=value&…` text the key stands: the pair that holds it, else the text as a whole. */
function whereInPairs(text: string, keys: readonly string[], what: string, whole: string): KeySent | undefined {
  if (!holds(text, keys)) return undefined;
  for (const pair of text.split('&')) {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    if (holds(name, keys)) return { words: `a ${what} whose name holds it` };
    if (equals !== -1 && holds(pair.slice(equals + 1), keys)) return named(name, keys, what);
  }
  // Split by `&`, the key is in no one pair: it holds an `&` of its own, sent as it is.
  return { words: whole };
}

/** The password of a Basic Authorization header, decoded: a key sent as a password is sent all the same. */
function basicCredentials(value: string): string | undefined {
  const token = /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value)?.[1];
  return token === undefined ? undefined : Buffer.from(token, 'base64').toString('utf8');
}

/** Where the request carries one of the keys: a header, the URL, the form body; undefined where it does not. */
export function whereKeySent(req: RequestUnderTest, keys: readonly string[]): KeySent | undefined {
  if (keys.length === 0) return undefined;
  for (const [name, value] of Object.entries(req.seen.headers)) {
    if (value === undefined) continue;
    const basic = basicCredentials(value);
    if (holds(value, keys) || (basic !== undefined && holds(basic, keys))) return named(name, keys, 'header');
  }
  const [path = '', query = ''] = (req.seen.url.split('#')[0] ?? '').split(/\?(.*)/s);
  if (holds(path, keys)) return { words: 'the URL path' };
  const inQuery = whereInPairs(query, keys, 'URL query parameter', 'the URL query');
  if (inQuery !== undefined) return inQuery;
  const body = req.receivedBody;
  return body === undefined ? undefined : whereInPairs(body.toString('utf8'), keys, 'form field', 'the form body');
}

export const noControlKeyInRequest: Rule<RequestUnderTest, 'no-control-key-in-request', 'CONTROL_KEY_SENT'> = {
  id: 'no-control-key-in-request',
  title: 'the merchant control key is never sent',
  clause:
    'Scheme A rule 4: "The control key is never sent"; Identifiers: merchant_control_key "never sent"; A-44 ' +
    '(anywhere in the request, and the refusal)',
  basis: 'spec',
  assumptions: ['A-44'],
  refusals: [{ status: 400, code: 'CONTROL_KEY_SENT' }],
  severity: 'critical',
  hint:
    'Never send the merchant control key: it only goes, last, into the SHA-1 input of control (and into the ' +
    'OAuth signing key), computed on your server. Remove the field or header that carries it, then have the key ' +
    'replaced: every proxy and log between your shop and the gateway may hold it now.',
  check(req): Outcome {
    const keys = req.context.merchants.map((m) => m.merchantControlKey).filter((k) => k.length >= MIN_KEY_CHARS);
    const sent = whereKeySent(req, keys);
    return sent === undefined
      ? PASS
      : fail(`leak: the merchant control key is sent in ${sent.words}; it is a secret, never sent`, {
          field: sent.name,
        });
  },
};
