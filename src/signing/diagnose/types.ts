/** Shapes shared by the diagnosis of OAuth signatures and of control values. */
import type { Credentials, RequestInput } from '../request.ts';

export interface DiagnoseInput {
  readonly request: RequestInput;
  readonly credentials: Credentials;
  readonly given: { readonly control?: string | undefined; readonly authorization?: string | undefined };
  /** Control scheme: the catalogue operation; by default the one the URL path names. */
  readonly operation?: string;
  /** A gateway callback or customer return (its own formula, docs/callbacks.md): the URL is not used. */
  readonly callback?: boolean;
}

export type DiagnosedScheme = 'control' | 'oauth-hmac-sha1' | 'oauth-rsa-sha256';

export interface Diagnosis {
  readonly verdict: 'valid' | 'invalid';
  /** Every mistake that reproduces the given value, in MISTAKES order. */
  readonly defects: string[];
  readonly scheme: DiagnosedScheme;
  /** One line, never a secret. */
  readonly message: string;
  /** What the signature should cover (control key shown as a placeholder). */
  readonly correct: { readonly baseString?: string; readonly controlInput?: string };
  /** When no mistake reproduces the value: the ids of every mistake tried. */
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
  readonly title: string;
  /** What the partner's code does, in one sentence. */
  readonly explanation: string;
  readonly fix: string;
  /** Where real code makes it (repository, file and the expression), for docs/diagnoses.md. */
  readonly seenIn?: readonly string[];
}
