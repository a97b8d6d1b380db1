/**
 * Reading an answer payconform cannot trust (a gateway's, an upstream sandbox's, a merchant's callback
 * handler's) with its memory bounded: the first `cap` bytes are kept; past them the bytes are counted and
 * dropped, so the answer's size can still be told, until COUNT_LIMIT_BYTES, where the connection is closed
 * (the size is then "more than"). Time is bounded by the caller's deadline, which aborts the stream.
 */
import { wholeNumber } from './whole-number.ts';

/** The answer bytes kept by default: a thousand times what any answer of the API needs. */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;

/** Past the cap, bytes are counted up to this many; then the reader stops and the connection is closed. */
export const COUNT_LIMIT_BYTES = 1024 * 1024 * 1024;

/** The largest cap an option may set (what is kept must fit in memory many times over). */
const MAX_CAP = 256 * 1024 * 1024;

export interface CappedAnswer {
  /** The first `cap` bytes of the answer (all of it, when it is not truncated). */
  readonly bytes: Buffer;
  /** Bytes received: the answer's size, or at least COUNT_LIMIT_BYTES when `endless`. */
  readonly total: number;
  /** The answer was larger than the cap: only its first part is kept. */
  readonly truncated: boolean;
  /** The answer went on past COUNT_LIMIT_BYTES and the reader stopped: `total` is a lower bound. */
  readonly endless: boolean;
}

/** What is said of a truncated answer, wherever it is shown: its size and what was kept. */
export interface Truncation {
  readonly total: number;
  readonly kept: number;
  readonly endless: boolean;
}

/** Reads `body` to its end (or to COUNT_LIMIT_BYTES), keeping at most `cap` bytes. */
export async function readCapped(body: AsyncIterable<Uint8Array>, cap: number): Promise<CappedAnswer> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (keptBytes < cap) {
      const piece = Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.length, cap - keptBytes));
      kept.push(Buffer.from(piece));
      keptBytes += piece.length;
    }
    // Leaving the loop destroys the stream, which closes the connection.
    if (total >= COUNT_LIMIT_BYTES) return { bytes: Buffer.concat(kept), total, truncated: true, endless: true };
  }
  return { bytes: Buffer.concat(kept), total, truncated: total > cap, endless: false };
}

/** The truncation of a read answer, or undefined when it came whole. */
export const truncationOf = (answer: CappedAnswer): Truncation | undefined =>
  answer.truncated ? { total: answer.total, kept: answer.bytes.length, endless: answer.endless } : undefined;

/** "209715200 bytes, of which the first 1048576 are kept (--max-answer-bytes)", or "more than …" past the limit. */
export function truncationText(t: Truncation): string {
  const size = t.endless ? `more than ${t.total} bytes (reading stopped there)` : `${t.total} bytes`;
  return `${size}, of which the first ${t.kept} are kept (--max-answer-bytes)`;
}

/** The value of --max-answer-bytes: a whole number of bytes from 1 to 256 MiB, or the default. */
export const maxAnswerBytes = (text: string | undefined, field = '--max-answer-bytes'): number =>
  wholeNumber(text, field, 1, MAX_CAP) ?? DEFAULT_MAX_ANSWER_BYTES;
