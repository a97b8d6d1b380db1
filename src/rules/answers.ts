/**
 * Rules of what a gateway answers. One runner (judge-answer.ts) judges every answer by them, for the
 * suite's client and its steps alike; a broken-gateway defect breaks one by id (src/mock/defects.ts).
 */
import type { Truncation } from '../capped-answer.ts';
import { cvvSpans } from '../catalogue/card-echoes.ts';
import { containsFullPan } from '../schemas/index.ts';
import { MEDIA_TYPE } from './http.ts';
import { baseMediaType } from '../catalogue/answer-format.ts';
import { fail, PASS, skip, type Outcome, type Rule } from './rule.ts';

export interface AnswerSeen {
  readonly status: number;
  readonly contentType: string;
  /** The body as text. */
  readonly text: string;
  /** The merchant control key the request was made with, when the checker holds it. */
  readonly controlKey?: string | undefined;
  /** The CVVs the request sent, when the checker holds them (never kept with the answer). */
  readonly sentCvvs?: readonly string[] | undefined;
  /** The answer's headers, as received: an echo of card data there is as much a leak as in the body. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The body as read (JSON or a profile's form text), when it could be: identifier fields are then told apart. */
  readonly body?: unknown;
  /** The request was one a gateway must refuse (a negative scenario): validation-error-status judges it. */
  readonly refusalExpected?: boolean | undefined;
  /** The order status the answer reports (a status request): order-kept judges it. */
  readonly orderStatus?: string | undefined;
  /** How the client read the body: as JSON (its media type or a profile says so), as form text, or not at all. */
  readonly readAs?: 'json' | 'form' | undefined;
  /** The response schema the body must follow (the endpoint's for 200, the error schemas), or null for none. */
  readonly schema?: string | null | undefined;
  /** The answer was larger than the client reads (--max-answer-bytes): `text` is its first part only. */
  readonly truncated?: Truncation | undefined;
}

type AnswerRule<Id extends string> = Rule<AnswerSeen, Id, never>;

/** The statuses the spec lists for every endpoint, each with a body in application/vnd.pay+json. */
export const SPEC_STATUSES: ReadonlySet<number> = new Set([200, 400, 500]);

/** Whether the answer's media type is the spec's, whatever its status. */
export function mediaTypeOf(a: AnswerSeen): Outcome {
  return baseMediaType(a.contentType) === MEDIA_TYPE
    ? PASS
    : fail(`content-type: must be ${MEDIA_TYPE} (got ${a.contentType || 'none'})`, {
        field: 'content-type',
        expected: MEDIA_TYPE,
        actual: a.contentType || 'none',
      });
}

export const answerMediaType: AnswerRule<'answer-media-type'> = {
  id: 'answer-media-type',
  title: 'answers are application/vnd.pay+json',
  basis: 'spec',
  assumptions: [],
  refusals: [],
  clause:
    'Endpoints: "Responses: 200 …, 400 (ValidationErrorResponse), 500 (ServerErrorResponse)", all ' +
    'application/vnd.pay+json',
  hint: `Answer every API request with Content-Type ${MEDIA_TYPE}.`,
  // Any other status is other-status-answer's.
  check: (a) => (SPEC_STATUSES.has(a.status) ? mediaTypeOf(a) : skip('a status the spec does not list')),
};

export const validationErrorStatus: AnswerRule<'validation-error-status'> = {
  id: 'validation-error-status',
  title: 'a client mistake is answered 4xx',
  // The spec names 400 and 500 but not which status a refused request gets: A-21 decides (400, 403 for OAuth).
  basis: 'assumption',
  assumptions: ['A-21'],
  refusals: [],
  clause:
    'Errors: 400 ValidationErrorResponse "Validation error"; 500 ServerErrorResponse "Server error"; the status ' +
    'of a failed check "not shown": A-21',
  hint: 'Answer a request with a missing or invalid field 4xx (400 ValidationErrorResponse), never 500.',
  check: (a) =>
    a.refusalExpected !== true
      ? skip('no refusal was expected')
      : a.status >= 400 && a.status < 500
        ? PASS
        : a.status >= 200 && a.status < 300
          ? skip('the request was accepted')
          : fail(`status: a client mistake is answered 4xx (got ${a.status})`, {
              expected: '4xx (a client mistake)',
              actual: String(a.status),
            }),
};

export const noControlKeyInAnswer: AnswerRule<'no-control-key-in-answer'> = {
  id: 'no-control-key-in-answer',
  title: 'no control key in an answer',
  basis: 'assumption',
  assumptions: ['A-29'],
  refusals: [],
  clause: 'Scheme A rule 4: "The control key is never sent"; A-29',
  hint: 'Never quote the merchant control key in an answer, not even in an error message.',
  check: (a) => {
    const key = a.controlKey;
    if (key === undefined) return skip('the control key is not known here');
    const header = headerWhere(a, (_, value) => value.includes(key));
    return a.text.includes(key)
      ? fail('leak: the answer contains the merchant control key')
      : header !== undefined
        ? fail(`leak: the answer's ${header} header contains the merchant control key`, { field: header })
        : PASS;
  },
};

/** The name of the first of the answer's headers that `holds`. */
function headerWhere(a: AnswerSeen, holds: (name: string, value: string) => boolean): string | undefined {
  return Object.entries(a.headers ?? {}).find(([name, value]) => holds(name, value))?.[0];
}

export const noFullPanInAnswer: AnswerRule<'no-full-pan-in-answer'> = {
  id: 'no-full-pan-in-answer',
  title: 'no full card number in an answer',
  basis: 'assumption',
  assumptions: ['A-19'],
  refusals: [],
  clause: 'Card data must not be shown (design); A-19 (first six and last four digits at most)',
  hint: 'Mask card numbers in every answer: at most the first six and last four digits.',
  check: (a) => {
    // An identifier header (x-request-id) is a long digit string too, as in the body.
    const header = headerWhere(a, (name, value) => containsFullPan({ [name]: value }));
    return containsFullPan(a.body ?? a.text)
      ? fail(': contains a full card number (at most the first six and last four digits may be shown)')
      : header !== undefined
        ? fail(`${header}: the header contains a full card number (at most the first six and last four digits)`, {
            field: header,
          })
        : PASS;
  },
};

export const noCvvInAnswer: AnswerRule<'no-cvv-in-answer'> = {
  id: 'no-cvv-in-answer',
  title: 'no CVV in an answer',
  basis: 'assumption',
  assumptions: ['A-34'],
  refusals: [],
  clause:
    'PCI DSS v4.0 requirement 3.3.1.2: "the card verification code is not retained upon completion of ' +
    'authorization"; design: a CVV never shows; A-34',
  hint: 'Never quote the card verification code (cvv2) in an answer, not in an error message, not in a header.',
  check: (a) => {
    const sent = a.sentCvvs ?? [];
    if (sent.length === 0) return skip('the request sent no CVV');
    const echoes = (text: string): boolean => cvvSpans(text, sent, true).length > 0;
    // The name may be the header's own (x-cvv2: 123).
    const header = headerWhere(a, (name, value) => echoes(`${name}: ${value}`));
    return echoes(a.text)
      ? fail('leak: the answer echoes the CVV the request sent')
      : header !== undefined
        ? fail(`leak: the answer's ${header} header echoes the CVV the request sent`, { field: header })
        : PASS;
  },
};

export const orderKept: AnswerRule<'order-kept'> = {
  id: 'order-kept',
  title: 'an accepted order is not lost',
  basis: 'assumption',
  assumptions: ['A-28'],
  refusals: [],
  clause: 'Behaviour of the response kinds: the outcome "is read later"; A-28 (unknown is no outcome)',
  hint: 'Keep every order you accepted: status must report it, never "unknown".',
  check: ({ orderStatus }) =>
    orderStatus === undefined
      ? skip('the answer reports no order status')
      : orderStatus === 'unknown'
        ? fail('status: the gateway answered "unknown" for an order it accepted', {
            expected: 'processing or a final status',
            actual: 'unknown',
          })
        : PASS,
};
