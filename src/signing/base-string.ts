/**
 * Signature base string, RFC 5849 §3.4.1.1 and api-spec.md Scheme B rule 4:
 * `METHOD&enc(normalized URL)&enc(normalized params)`.
 */
import { percentEncode } from './percent-encode.ts';

export function signatureBaseString(method: string, normalizedUrl: string, normalizedParams: string): string {
  return `${method.toUpperCase()}&${percentEncode(normalizedUrl)}&${percentEncode(normalizedParams)}`;
}
