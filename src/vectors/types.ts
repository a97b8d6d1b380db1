/** The vector interchange format `payconform-vectors/1` (shared vector-format.md, docs/vectors.md). */
import type { Pair } from '../signing/form-body.ts';
import type { ExpectedValues } from '../signing/sign.ts';

export const VECTOR_FORMAT = 'payconform-vectors/1';

export type VectorScheme = 'control' | 'oauth-hmac-sha1' | 'oauth-rsa-sha256';

export interface Vector {
  id: string;
  description?: string;
  scheme: VectorScheme;
  operation?: string;
  /** payconform extension: a gateway callback (docs/callbacks.md), not a request to a catalogue endpoint. */
  message?: 'callback';
  request: { method: string; url: string; params: Pair[] };
  credentials: {
    login?: string;
    merchantControlKey?: string;
    privateKeyPem?: string;
    publicKeyPem?: string;
    token?: string;
    tokenSecret?: string;
  };
  oauth?: { nonce: string; timestamp: string; realm?: string; version?: string | null };
  /** Verification vectors: what a partner sent. */
  given?: { control?: string; authorization?: string };
  expected: ExpectedValues & { verdict?: 'valid' | 'invalid'; defect?: string | null };
}

export interface VectorFile {
  format: typeof VECTOR_FORMAT;
  description?: string;
  vectors: Vector[];
}
