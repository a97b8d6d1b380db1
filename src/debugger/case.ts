/** What the page's form holds, and what the page shows for it: plain data, so a test can compare it as JSON. */
import type { FirstDifference } from '../signing/first-difference.ts';
import type { ExplainStep } from '../signing/explain.ts';
import type { RequestFormat } from './request-text.ts';

export interface DebuggerInput {
  /** The "Request" field: a raw HTTP request, a curl command, or operation and fields (request-text.ts). */
  readonly request: string;
  readonly login?: string | undefined;
  readonly controlKey?: string | undefined;
  readonly publicKeyPem?: string | undefined;
  readonly privateKeyPem?: string | undefined;
  /** A gateway callback or customer return to the merchant (docs/callbacks.md), not a request to the gateway. */
  readonly callback?: boolean | undefined;
  /** Show the control key in the steps instead of its placeholder. */
  readonly showKey?: boolean | undefined;
}

export interface SentAgainstCorrect {
  readonly what: string;
  readonly sent: string;
  readonly correct: string;
  readonly difference: FirstDifference | null;
}

export interface FoundMistake {
  readonly id: string;
  readonly title: string;
  readonly explanation: string;
  readonly fix: string;
}

export interface DebuggerResult {
  readonly format?: RequestFormat;
  /** Why the request could not be read or judged: one line naming the field and the rule. */
  readonly error?: string;
  /** Why the steps could not be shown (a key is missing, say), while the verdict still could. */
  readonly stepsError?: string;
  readonly endpoint?: string;
  readonly scheme?: string;
  readonly steps: readonly ExplainStep[];
  /** The signature (or control) sent against the one the spec gives, first difference marked. */
  readonly value?: SentAgainstCorrect;
  /** What the signature covers (base string or concatenation) against what the partner signed. */
  readonly covered?: SentAgainstCorrect;
  readonly verdict?: 'valid' | 'invalid';
  readonly message?: string;
  readonly mistakes: readonly FoundMistake[];
  /** When no known mistake reproduces the value: the ids tried. */
  readonly tried?: readonly string[];
  /** The case as a payconform-vectors/1 file, secrets as placeholders. */
  readonly vectorFile?: string;
  /** The partner-pack README of the operation with this request, or why there is none. */
  readonly packReadme?: string;
  readonly packReadmeMissing?: string;
  /** The URL fragment that brings the inputs back, without any key. */
  readonly fragment: string;
}
