/**
 * Rules of what a gateway answers. The suite's client checks them on every answer; the mock keeps
 * them, and a broken-gateway defect breaks one by id (src/mock/defects.ts).
 */
import { baseMediaType } from '../catalogue/answer-format.ts';
import { containsFullPan } from '../schemas/index.ts';
import { MEDIA_TYPE } from './http.ts';
import { fail, PASS, skip, type Rule } from './rule.ts';

export interface AnswerSeen {
  readonly status: number;
  readonly contentType: string;
  /** The body as text. */
  readonly text: string;
  /** The merchant control key the request was made with, when the checker holds it. */
  readonly controlKey?: string | undefined;
  /** The body as read (JSON or a profile's form text), when it could be: identifier fields are then told apart. */
  readonly body?: unknown;
}

type AnswerRule<Id extends string> = Rule<AnswerSeen, Id, never>;

export const answerMediaType: AnswerRule<'answer-media-type'> = {
  id: 'answer-media-type',
  title: 'answers are application/vnd.pay+json',
  basis: 'spec',
  refusals: [],
  clause:
    'Endpoints: "Responses: 200 …, 400 (ValidationErrorResponse), 500 (ServerErrorResponse)", all ' +
    'application/vnd.pay+json',
  hint: `Answer every API request with Content-Type ${MEDIA_TYPE}.`,
  check: (a) =>
    baseMediaType(a.contentType) === MEDIA_TYPE
      ? PASS
      : fail(`content-type: must be ${MEDIA_TYPE} (got ${a.contentType || 'none'})`, {
          field: 'content-type',
          expected: MEDIA_TYPE,
          actual: a.contentType || 'none',
        }),
};

export const validationErrorStatus: AnswerRule<'validation-error-status'> = {
  id: 'validation-error-status',
  title: 'a client mistake is answered 400',
  basis: 'spec',
  refusals: [],
  clause: 'Errors: 400 ValidationErrorResponse "Validation error"; 500 ServerErrorResponse "Server error"',
  hint: 'Answer a request with a missing or invalid field 400 ValidationErrorResponse, never 500.',
  check: (a) =>
    a.status === 400
      ? PASS
      : a.status === 200
        ? skip('the request was accepted')
        : fail(`status: a validation error is answered 400 (got ${a.status})`, {
            expected: '400',
            actual: String(a.status),
          }),
};

export const noControlKeyInAnswer: AnswerRule<'no-control-key-in-answer'> = {
  id: 'no-control-key-in-answer',
  title: 'no control key in an answer',
  basis: 'assumption',
  refusals: [],
  clause: 'Scheme A rule 4: "The control key is never sent"; A-29',
  hint: 'Never quote the merchant control key in an answer, not even in an error message.',
  check: (a) =>
    a.controlKey === undefined
      ? skip('the control key is not known here')
      : a.text.includes(a.controlKey)
        ? fail('leak: the answer contains the merchant control key')
        : PASS,
};

export const noFullPanInAnswer: AnswerRule<'no-full-pan-in-answer'> = {
  id: 'no-full-pan-in-answer',
  title: 'no full card number in an answer',
  basis: 'assumption',
  refusals: [],
  clause: 'Card data must not be shown (design); A-19 (first six and last four digits at most)',
  hint: 'Mask card numbers in every answer: at most the first six and last four digits.',
  check: (a) =>
    containsFullPan(a.body ?? a.text)
      ? fail(': contains a full card number (at most the first six and last four digits may be shown)')
      : PASS,
};

export const orderKept: Rule<{ readonly status: string }, 'order-kept', never> = {
  id: 'order-kept',
  title: 'an accepted order is not lost',
  basis: 'assumption',
  refusals: [],
  clause: 'Behaviour of the response kinds: the outcome "is read later"; A-28 (unknown is no outcome)',
  hint: 'Keep every order you accepted: status must report it, never "unknown".',
  check: ({ status }) =>
    status === 'unknown'
      ? fail('status: the gateway answered "unknown" for an order it accepted', {
          expected: 'processing or a final status',
          actual: 'unknown',
        })
      : PASS,
};
