/**
 * Signed evidence: `manifest.jws` is a compact JWS (RS256, through `jose`) over what the bundle is:
 * every file's SHA-256 and size, the target, the verdict and the time. A digest manifest alone says a
 * file changed only if the manifest did not change with it; the signature says who vouches for all
 * of it. Verifying checks every file against the signed digests, then the signature.
 */
import { createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { existsSync, lstatSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { CompactSign, compactVerify, decodeProtectedHeader, type JWK } from 'jose';
import { fieldError } from '../errors.ts';
import { bundleEntries, digestBounded, readBundleText } from './bundle-files.ts';
import { keyFingerprint, NO_TRUSTED_KEYS, type TrustedKeys } from './bundle-trust.ts';

export const SIGNATURE_FILE = 'manifest.jws';
export const MANIFEST_FILE = 'manifest.json';
const TYPE = 'payconform-bundle+jws';

export interface FileDigest {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
}

export interface SignedBundle {
  readonly payconform: string;
  readonly target: string;
  readonly status: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly signedAt: string;
  readonly files: readonly FileDigest[];
}

/** A private key for signing bundles: RSA, at least 2048 bits, PEM (PKCS#8 or PKCS#1). */
export function bundleSigningKey(pem: string, field: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw fieldError('ERR_BUNDLE', field, 'is not a PEM private key');
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa' || bits < 2048)
    throw fieldError(
      'ERR_BUNDLE',
      field,
      `must be an RSA key of at least 2048 bits (got ${key.asymmetricKeyType} ${bits || ''})`.trim(),
    );
  return key;
}

/**
 * Every file of the bundle but the manifest and its signature, with its size and SHA-256: of a bundle
 * this run wrote, so anything but a regular file in it is refused.
 */
export function fileDigests(dir: string): FileDigest[] {
  const { files, refused } = bundleEntries(dir);
  if (refused.length > 0) throw fieldError('ERR_BUNDLE', 'DIR', `${dir}: ${refused[0]}`);
  return files
    .filter((p) => p !== MANIFEST_FILE && p !== SIGNATURE_FILE)
    .map((path) => {
      const digest = digestBounded(dir, path, Number.MAX_SAFE_INTEGER);
      if ('problem' in digest) throw fieldError('ERR_BUNDLE', 'DIR', `${dir}: ${digest.problem}`);
      return { path, ...digest };
    });
}

/** Writes manifest.jws over the bundle as it is now; returns the key's fingerprint. */
export async function signBundle(
  dir: string,
  key: KeyObject,
  about: Omit<SignedBundle, 'files' | 'signedAt'>,
): Promise<string> {
  const payload: SignedBundle = { ...about, signedAt: new Date().toISOString(), files: fileDigests(dir) };
  const { kty, n, e } = createPublicKey(key).export({ format: 'jwk' }) as JWK;
  if (kty === undefined || n === undefined || e === undefined)
    throw new Error('internal: an RSA public key exported no kty, n or e');
  const kid = keyFingerprint(key);
  // The public key travels in the header so anyone can check integrity; whose key it is, the
  // verifier decides: only a key they named vouches for the bundle (bundle-trust.ts).
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'RS256', typ: TYPE, kid, jwk: { kty, n, e } })
    .sign(key);
  writeFileSync(join(dir, SIGNATURE_FILE), `${jws}\n`);
  return kid;
}

export interface BundleCheck {
  /** Empty when intact. Each names the file or the reason. */
  readonly problems: string[];
  readonly signed: boolean;
  /** The fingerprint of the key the signature verified with (computed here, never the header's word). */
  readonly keyFingerprint?: string;
  /** Whether that key is one the user named (docs/certify.md, the trust model). */
  readonly trusted: boolean;
  readonly payload?: SignedBundle;
  /** The run's verdict as the bundle states it: the signed one, else summary.json's. */
  readonly verdict?: string;
}

/**
 * Checks every file against the signed digests (or, unsigned, against manifest.json), then the
 * signature with the key that made it, then whether the user trusts that key. Whom to believe is
 * the caller's: this says what is true of the bundle.
 */
export async function verifyBundle(dir: string, trusted: TrustedKeys = NO_TRUSTED_KEYS): Promise<BundleCheck> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw fieldError('ERR_BUNDLE', 'DIR', `${dir} is not a folder`);
  const signaturePath = join(dir, SIGNATURE_FILE);
  if (!lstatOrUndefined(signaturePath)) {
    if (!lstatOrUndefined(join(dir, MANIFEST_FILE)))
      throw fieldError('ERR_BUNDLE', 'DIR', `${dir} has no ${MANIFEST_FILE}: not a payconform bundle`);
    const verdict = summaryVerdict(dir);
    const manifest = readManifest(dir);
    if (manifest === undefined)
      return {
        problems: [`${MANIFEST_FILE}: not a manifest (edited after the run, or not a regular file)`],
        signed: false,
        trusted: false,
        verdict,
      };
    return { problems: checkFiles(dir, manifest.files, MANIFEST_FILE), signed: false, trusted: false, verdict };
  }
  let text: string;
  try {
    text = readBundleText(dir, SIGNATURE_FILE);
  } catch (err) {
    return { problems: [(err as Error).message], signed: true, trusted: false, verdict: summaryVerdict(dir) };
  }
  const unverified = (problem: string): BundleCheck => ({
    problems: [`${SIGNATURE_FILE}: ${problem}`],
    signed: true,
    trusted: false,
    verdict: summaryVerdict(dir),
  });
  // Byte for byte as signBundle wrote it, like every file the manifest lists: a changed byte is a changed bundle.
  const jws = text.slice(0, -1);
  if (!text.endsWith('\n') || jws !== jws.trim())
    return unverified('not as written (one compact JWS and a line break)');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    return unverified('not a compact JWS');
  }
  let inBundle: KeyObject | undefined;
  try {
    inBundle = header.jwk ? createPublicKey({ key: header.jwk as JsonWebKey, format: 'jwk' }) : undefined;
  } catch {
    return unverified('the key in its header is not an RSA public key');
  }
  // The user's own copy of the key when they gave it whole, so a header cannot swap in another.
  const named = trusted.keys.find((k) => keyFingerprint(k) === (inBundle ? keyFingerprint(inBundle) : header.kid));
  const key = named ?? inBundle;
  if (key === undefined) return unverified("no key in its header; give the signer's --public-key");
  let payload: SignedBundle;
  try {
    const verified = await compactVerify(jws, key, { algorithms: ['RS256', 'PS256'] });
    payload = JSON.parse(new TextDecoder().decode(verified.payload)) as SignedBundle;
    // Whoever holds a key can sign anything: the payload is checked for shape like any input.
    if (!isDigestList(payload?.files) || typeof payload.status !== 'string')
      return unverified('the signed payload is not a bundle manifest');
  } catch {
    return unverified('the signature does not verify (the signature or the signed manifest was edited)');
  }
  const problems = checkFiles(dir, payload.files, SIGNATURE_FILE);
  if (lstatOrUndefined(join(dir, MANIFEST_FILE))) {
    const manifest = readManifest(dir);
    if (JSON.stringify(manifest?.files.map(digestOnly)) !== JSON.stringify(payload.files.map(digestOnly)))
      problems.push(`${MANIFEST_FILE}: differs from the signed digests (edited after signing)`);
  } else {
    problems.push(`${MANIFEST_FILE}: missing (a bundle holds it beside ${SIGNATURE_FILE})`);
  }
  const fingerprint = keyFingerprint(key);
  return {
    problems,
    signed: true,
    keyFingerprint: fingerprint,
    trusted: trusted.fingerprints.has(fingerprint),
    payload,
    verdict: payload.status,
  };
}

/** summary.json's status, when it has one: what an unsigned (or unverifiable) bundle claims. */
function summaryVerdict(dir: string): string | undefined {
  try {
    const status = (JSON.parse(readBundleText(dir, 'summary.json')) as { status?: unknown }).status;
    return typeof status === 'string' ? status : undefined;
  } catch {
    return undefined;
  }
}

/** A list of {path, bytes, sha256}, as a manifest holds: anything else is not a manifest. */
function isDigestList(files: unknown): files is FileDigest[] {
  return (
    Array.isArray(files) &&
    files.every((f: unknown) => {
      const d = f as Partial<FileDigest> | null;
      return (
        d !== null &&
        typeof d === 'object' &&
        typeof d.path === 'string' &&
        typeof d.bytes === 'number' &&
        typeof d.sha256 === 'string'
      );
    })
  );
}

const digestOnly = (f: FileDigest): string => `${f.path} ${f.sha256}`;

/** manifest.json's list, or undefined when it is not one (not JSON, no files). */
function readManifest(dir: string): { files: FileDigest[] } | undefined {
  try {
    const manifest = JSON.parse(readBundleText(dir, MANIFEST_FILE)) as { files?: unknown };
    return isDigestList(manifest.files) ? (manifest as { files: FileDigest[] }) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What differs between the digests vouched for and the files there now, a line per file. Only files
 * found by walking the bundle are opened (a listed path cannot point outside it), each read to at
 * most its listed size; a file not listed is named, not read.
 */
function checkFiles(dir: string, expected: readonly FileDigest[], source: string): string[] {
  const { files, refused } = bundleEntries(dir);
  const problems = [...refused];
  const there = new Set(files.filter((p) => p !== MANIFEST_FILE && p !== SIGNATURE_FILE));
  const refusedPath = (path: string): boolean => refused.some((r) => r.startsWith(`${path}: `));
  for (const f of expected) {
    if (!there.delete(f.path)) {
      if (!refusedPath(f.path)) problems.push(`${f.path}: missing (listed in ${source})`);
      continue;
    }
    const limit = Number.isSafeInteger(f.bytes) && f.bytes >= 0 ? f.bytes : 0;
    const now = digestBounded(dir, f.path, limit);
    if ('problem' in now) problems.push(now.problem);
    else if (now.sha256 !== f.sha256)
      problems.push(`${f.path}: changed since the run (SHA-256 differs from ${source})`);
  }
  for (const path of there) problems.push(`${path}: not in ${source} (added after the run)`);
  return problems;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
