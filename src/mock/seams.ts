/**
 * The three places where the mock meets its rules and the merchant: the gate that runs the rules,
 * the writer of its answers, and the signer of its callbacks. The mock uses them as given; a
 * deliberately broken variant is these seams wrapped from outside (src/mock/defects.ts), so
 * server.ts, operations.ts and callbacks.ts hold no defect branch.
 */
import { renderAnswer, type AnswerFormat } from '../catalogue/answer-format.ts';
import type { RefusalCode, RuleId } from '../rules/book.ts';
import type { RequestUnderTest } from '../rules/request.ts';
import type { Evidence, Outcome, Rule } from '../rules/rule.ts';
import { firstFailure, type RequestRule } from '../rules/run.ts';
import { callbackPairs, type CallbackFacts } from '../signing/callback.ts';
import type { Pair } from '../signing/form-body.ts';

export interface Failure {
  readonly rule: RequestRule;
  readonly evidence: Evidence;
}

/** Runs the rules: the first failing request rule, and each order rule's outcome. */
export interface Gate {
  firstFailure(rules: readonly RequestRule[], request: RequestUnderTest): Failure | undefined;
  check<In>(rule: Rule<In, RuleId, RefusalCode>, input: In): Outcome;
}

export const PLAIN_GATE: Gate = {
  firstFailure: (rules, request) => firstFailure(rules, request),
  check: (rule, input) => rule.check(input),
};

/** An answer before it is written: its HTTP status, its fields, and headers of its own (Allow, Connection). */
export interface MockAnswer {
  readonly status: number;
  readonly body: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An answer as it goes on the wire, with the answer it was written from. */
export interface WrittenAnswer {
  readonly answer: MockAnswer;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | number>>;
  readonly text: string;
}

/** Writes an answer; the request, where there is one, is what a broken writer may leak from. */
export type AnswerWriter = (answer: MockAnswer, request: RequestUnderTest | undefined) => WrittenAnswer;

/**
 * The HTTP status an answer goes out with. A profile's errorStatus (200, the public gateways' way) replaces only the
 * spec's two refusal statuses, 400 and 500: a failed OAuth check stays 403 as the public docs say
 * (doc.payneteasy.com integration_helpers/oauth.html, A-21), and HTTP's own statuses (404, 405, 413, 415) stay.
 */
function answeredStatus(status: number, format: AnswerFormat): number {
  return format.errorStatus !== undefined && (status === 400 || status === 500) ? format.errorStatus : status;
}

/** The writer of answers in a format (catalogue/answer-format.ts, the one renderer), with the gateway's field names. */
export function answerWriter(format: AnswerFormat, names: Readonly<Record<string, string>>): AnswerWriter {
  return (answer) => {
    const { status, body, headers } = answer;
    const { text, contentType } = renderAnswer(body, format, names);
    return {
      answer,
      status: answeredStatus(status, format),
      headers:
        headers === undefined
          ? { 'content-type': contentType, 'content-length': Buffer.byteLength(text) }
          : { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...headers },
      text,
    };
  };
}

/** The signed fields of a callback (and of the customer's return, which is cut from them). */
export type CallbackSigner = (facts: CallbackFacts, controlKey: string) => Pair[];

export const PLAIN_SIGNER: CallbackSigner = callbackPairs;
