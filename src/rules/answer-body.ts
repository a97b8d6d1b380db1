/**
 * Rules of an answer's body: JSON where the media type says so, the statuses the spec does not list
 * and the response schemas (A-17 fields, A-18 no field we do not expect). The client reads the
 * body and names its schema; these rules judge what it read (src/rules/judge-answer.ts runs them).
 */
import { baseMediaType } from '../catalogue/answer-format.ts';
import { truncationText } from '../capped-answer.ts';
import { validateResponse } from '../schemas/index.ts';
import { mediaTypeOf, SPEC_STATUSES, type AnswerSeen } from './answers.ts';
import { fail, PASS, skip, type Outcome, type Rule } from './rule.ts';

type AnswerRule<Id extends string> = Rule<AnswerSeen, Id, never>;

function jsonBody(a: AnswerSeen): Outcome {
  if (a.readAs !== 'json') return skip('the body is not read as JSON');
  // Only the first part was read: no JSON parser can say the whole is JSON, and the size is the news.
  if (a.truncated !== undefined)
    return fail(`body: ${truncationText(a.truncated)}; an answer this large is not read whole, nor judged JSON`, {
      field: 'body',
    });
  try {
    JSON.parse(a.text);
    return PASS;
  } catch {
    const mediaType = baseMediaType(a.contentType);
    return fail(`body: is not JSON although the content type is ${mediaType}`, { field: 'body' });
  }
}

export const answerJsonBody: AnswerRule<'answer-json-body'> = {
  id: 'answer-json-body',
  title: 'a JSON answer is JSON',
  basis: 'spec',
  assumptions: [],
  refusals: [],
  clause: 'Endpoints: "Responses: 200 …, 400 (ValidationErrorResponse), 500 (ServerErrorResponse)" with JSON bodies',
  hint: 'Send a well-formed JSON body with every application/vnd.pay+json answer.',
  check: (a) => (SPEC_STATUSES.has(a.status) ? jsonBody(a) : skip('a status the spec does not list')),
};

export const otherStatusAnswer: AnswerRule<'other-status-answer'> = {
  id: 'other-status-answer',
  title: 'any other status is answered like the spec’s',
  basis: 'assumption',
  assumptions: ['A-21'],
  refusals: [],
  clause: 'Errors: only 400 and 500 are listed; the status of a failed check "not shown": A-21 (the same JSON body)',
  hint: 'Answer a status the spec does not list (403, 404, …) in application/vnd.pay+json with a JSON body.',
  check: (a) => {
    if (SPEC_STATUSES.has(a.status)) return skip('a status the spec lists');
    const media = mediaTypeOf(a);
    return media.outcome === 'fail' ? media : jsonBody(a);
  },
};

/** The schema's findings for this answer: those `keep` picks, or a skip. */
function schemaFindings(a: AnswerSeen, keep: (error: string) => boolean): Outcome {
  if (a.schema === undefined || a.schema === null) return skip('no schema for this status');
  const result = validateResponse(a.schema, a.body);
  const errors = result.valid ? [] : result.errors.filter(keep);
  return errors.length === 0 ? PASS : fail(errors.map((e) => `${a.schema}${e}`).join('; '));
}

const UNKNOWN_FIELD = 'must NOT have additional properties';
// no-full-pan-in-answer says it of every answer; the schema would say it again.
const FULL_PAN = 'full card number';

export const answerSchema: AnswerRule<'answer-schema'> = {
  id: 'answer-schema',
  title: 'an answer has the fields of its schema',
  basis: 'assumption',
  assumptions: ['A-17'],
  refusals: [],
  clause:
    'Response schemas are named, their fields "not shown": A-17 (the answer field tables, each row citing the ' +
    "family's public page it was read on)",
  hint: "Answer with the fields of the schema's table (docs/fields.md), or name yours in a profile (answerFields).",
  check: (a) => schemaFindings(a, (e) => !e.includes(UNKNOWN_FIELD) && !e.includes(FULL_PAN)),
};

export const answerFieldsKnown: AnswerRule<'answer-fields-known'> = {
  id: 'answer-fields-known',
  title: 'an answer has no field its schema does not list',
  basis: 'assumption',
  assumptions: ['A-18'],
  refusals: [],
  clause:
    'Response schemas: fields "not shown"; A-18 (every field listed: a check must notice what it does not expect)',
  hint: 'Leave out fields the schema does not list, or let a gateway profile ignore them (unknownAnswerFields).',
  check: (a) => schemaFindings(a, (e) => e.includes(UNKNOWN_FIELD)),
};
