/**
 * One RSA PKCS#1 v1.5 signature (RFC 8017 §8.2.2) checked against many candidate messages: the DigestInfo the
 * signature holds is recovered once with the public key, then each candidate costs one hash, not an RSA
 * verification (the diagnosis search checks up to a thousand base strings against one signature).
 */
import { constants, createHash, publicDecrypt, type KeyObject } from 'node:crypto';

/** The DER prefix of a DigestInfo for each hash (RFC 8017 §9.2, note 1). */
const DIGEST_INFO_PREFIX = {
  sha1: Buffer.from('3021300906052b0e03021a05000414', 'hex'),
  sha256: Buffer.from('3031300d060960864801650304020105000420', 'hex'),
} as const;

export type RsaHash = keyof typeof DIGEST_INFO_PREFIX;

/** The DigestInfo a signature holds, or null where it is no PKCS#1 v1.5 signature under this key. */
export function signedDigestInfo(publicKey: KeyObject, signature: Buffer): Buffer | null {
  try {
    return publicDecrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, signature);
  } catch {
    return null;
  }
}

/** Whether `digestInfo` is that of `message` under `hash`: what crypto.verify answers for the signature. */
export function signsMessage(digestInfo: Buffer, hash: RsaHash, message: string): boolean {
  return digestInfo.equals(Buffer.concat([DIGEST_INFO_PREFIX[hash], createHash(hash).update(message).digest()]));
}
