/** Shapes shared by the diagnosis of OAuth signatures and of control values. */
import type { Credentials, RequestInput } from '../request.ts';
import type { PathMatch } from '../../catalogue/index.ts';

export interface DiagnoseInput {
  readonly request: RequestInput;
  readonly credentials: Credentials;
  readonly given: { readonly control?: string | undefined; readonly authorization?: string | undefined };
  /** Control scheme: the catalogue operation; by default the one the URL path names. */
  readonly operation?: string;
  /** A gateway callback or customer return (its own formula, docs/callbacks.md): the URL is not used. */
  readonly callback?: boolean;
  /** The URL's catalogue match, when the caller has made it already (taken as it is). */
  readonly match?: PathMatch | undefined;
}

export type DiagnosedScheme = 'control' | 'oauth-hmac-sha1' | 'oauth-rsa-sha256';

/** Mistakes at different steps that together reproduce a value: each operator's id and the step it changed. */
export interface Composition {
  readonly mistakes: readonly string[];
  readonly steps: readonly string[];
  /** The formula fields its mistake at the fields step left out, or the request's fields it added (control only). */
  readonly fields?: readonly string[];
}

export interface Diagnosis {
  readonly verdict: 'valid' | 'invalid';
  /** Every mistake of every composition that reproduces the given value, smallest compositions first. */
  readonly defects: string[];
  /** Each smallest composition of mistakes that reproduces the value (one mistake alone is a composition of one). */
  readonly compositions?: readonly Composition[];
  /** Several compositions give this very value: the request cannot tell which one the partner made. */
  readonly ambiguous?: boolean;
  /** A field whose value itself is wrong (the only explanation reinterprets what is charged): no value to sign. */
  readonly wrongValue?: string;
  readonly scheme: DiagnosedScheme;
  /** One line, never a secret. */
  readonly message: string;
  /** What the signature should cover (control key shown as a placeholder). */
  readonly correct: { readonly baseString?: string; readonly controlInput?: string };
  /** When no composition reproduces the value: the ids of every mistake tried (alone and together). */
  readonly tried?: readonly string[];
  /**
   * A found mistake's explanation in this request's own values (the amount as sent), by mistake id, where it has one.
   */
  readonly explanations?: Readonly<Record<string, string>>;
  /** What the partner signed, under the first mistake found. */
  readonly partner?: { readonly baseString?: string; readonly controlInput?: string };
}

export interface Mistake {
  readonly id: string;
  readonly scheme: 'oauth' | 'control';
  /** The step of the signing recipe where the partner diverged (docs/diagnoses.md groups mistakes by it). */
  readonly step?: string;
  readonly title: string;
  /** What the partner's code does, in one sentence. */
  readonly explanation: string;
  readonly fix: string;
  /** Where real code makes it (repository, file and the expression), for docs/diagnoses.md. */
  readonly seenIn?: readonly string[];
  /** A field whose value itself is wrong, not a way of signing (a gateway cannot verify "under" it). */
  readonly wrongValue?: string;
}
