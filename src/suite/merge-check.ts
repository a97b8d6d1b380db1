/**
 * Whether shards make a whole (`bundle merge`): each shard intact (its manifest, and its signature
 * when signed, all by one key), finished, and of one run: the same target, payconform version,
 * spec, selection, profile and N, with every index 1..N exactly once. A merge of anything less
 * would print a verdict for scenarios that never ran, so it is refused naming the missing shard,
 * the odd one out or the changed file.
 */
import { createHash } from 'node:crypto';
import { fieldError } from '../errors.ts';
import { readBundleText } from '../report/bundle-files.ts';
import { MANIFEST_FILE, SIGNATURE_FILE, verifyBundle } from '../report/bundle-signature.ts';
import type { Summary } from '../report/bundle.ts';
import type { RunFacts } from './certificate.ts';

/** A shard's summary.json, once checked: its payconform version is known (checkShard refuses it otherwise). */
export type ShardSummary = Omit<Summary, 'versions'> &
  RunFacts & { readonly versions: Readonly<Record<string, string>> & { readonly payconform: string } };

export interface CheckedShard {
  readonly dir: string;
  readonly summary: ShardSummary;
  readonly index: number;
  readonly total: number;
  /** Each file's listed size: a shard's files are read to at most that. */
  readonly sizes: ReadonlyMap<string, number>;
  /** What the merged bundle records of the shard, so the merge itself can be checked. */
  readonly record: { shard: string; manifestSha256: string; signatureSha256?: string; keyFingerprint?: string };
}

export type ShardsCheck = { readonly shards: [CheckedShard, ...CheckedShard[]] } | { readonly refused: string };

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function parseJson(dir: string, file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw fieldError('ERR_BUNDLE', 'DIR', `${dir}/${file} is not JSON`);
  }
}

/** One shard, intact, or why not. Not a folder or not a bundle is bad input (ERR_BUNDLE, exit 2). */
async function checkShard(dir: string): Promise<CheckedShard | string> {
  const check = await verifyBundle(dir);
  if (check.problems.length > 0) return `${dir}: ${check.problems.join('; ')}`;
  const manifestText = readBundleText(dir, MANIFEST_FILE);
  const manifest = parseJson(dir, MANIFEST_FILE, manifestText) as { files: Array<{ path: string; bytes: number }> };
  const sizes = new Map(manifest.files.map((f) => [f.path, f.bytes]));
  const summary = parseJson(
    dir,
    'summary.json',
    readBundleText(dir, 'summary.json', sizes.get('summary.json') ?? 0),
  ) as ShardSummary;
  if (
    summary === null ||
    typeof summary !== 'object' ||
    typeof summary.target !== 'string' ||
    typeof summary.versions?.payconform !== 'string'
  ) {
    throw fieldError(
      'ERR_BUNDLE',
      'DIR',
      `${dir}/summary.json is not a run's summary (no target or payconform version)`,
    );
  }
  if (summary.status === 'interrupted') return `${dir} is an interrupted run; merge only shards that finished`;
  const shard = /^([1-9]\d*)\/([1-9]\d*)$/.exec(String(summary.shard ?? ''));
  if (shard === null) return `${dir} is not a shard (certified without --shard I/N)`;
  const record = {
    shard: shard[0],
    manifestSha256: sha256(manifestText),
    ...(check.signed
      ? { signatureSha256: sha256(readBundleText(dir, SIGNATURE_FILE)), keyFingerprint: check.keyFingerprint! }
      : {}),
  };
  return { dir, summary, index: Number(shard[1]), total: Number(shard[2]), sizes, record };
}

/** The facts every shard of one run shares. */
const SAME_RUN: ReadonlyArray<[string, (s: CheckedShard) => unknown]> = [
  ['target', (s) => s.summary.target],
  ['payconform version', (s) => s.summary.versions?.payconform],
  ['spec (SHA-256)', (s) => s.summary.specSha256],
  ['selection', (s) => s.summary.selection],
  ['number of shards', (s) => s.total],
  ['gateway profile', (s) => s.summary.profile],
  ['strictness', (s) => s.summary.strict],
  ['live or mock', (s) => s.summary.live],
  ['signing key', (s) => s.record.keyFingerprint ?? 'unsigned'],
];

export async function checkShards([firstDir, ...moreDirs]: readonly [string, ...string[]]): Promise<ShardsCheck> {
  const head = await checkShard(firstDir);
  if (typeof head === 'string') return { refused: head };
  const shards: [CheckedShard, ...CheckedShard[]] = [head];
  for (const dir of moreDirs) {
    const shard = await checkShard(dir);
    if (typeof shard === 'string') return { refused: shard };
    shards.push(shard);
  }
  for (const s of shards.slice(1)) {
    for (const [what, of] of SAME_RUN) {
      const [mine, theirs] = [JSON.stringify(of(s)), JSON.stringify(of(head))];
      if (mine !== theirs)
        return {
          refused:
            `${s.dir} differs from ${head.dir} in its ${what} (${mine ?? 'none'}, ` +
            `not ${theirs ?? 'none'}): not shards of one run`,
        };
    }
  }
  const byIndex = new Map<number, string>();
  for (const s of shards) {
    const other = byIndex.get(s.index);
    if (other !== undefined) return { refused: `shard ${s.record.shard} is given twice: ${other} and ${s.dir}` };
    byIndex.set(s.index, s.dir);
  }
  const total = head.total;
  const missing = Array.from({ length: total }, (_, i) => i + 1)
    .filter((i) => !byIndex.has(i))
    .map((i) => `${i}/${total}`);
  if (missing.length > 0)
    return {
      refused:
        `shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} ` +
        `missing: a merge needs every shard of the run`,
    };
  shards.sort((a, b) => a.index - b.index);
  return { shards };
}
