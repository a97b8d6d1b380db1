/**
 * One bundle from the shards of a sharded certify run (`payconform bundle merge`): the messages of
 * every shard as one run, and from them summary.json, report.html (the certification page) and
 * cucumber.html, junit.xml (each
 * shard's test suites) and manifest.json, signed on request. Only shards that make a whole are
 * merged (merge-check.ts): the merged verdict would mean nothing otherwise.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { CucumberHtmlStream } from '@cucumber/html-formatter';
import type { Envelope } from '@cucumber/messages';
import type { KeyObject } from 'node:crypto';
import { fieldError, isPayconformError } from '../errors.ts';
import { readBundleText } from '../report/bundle-files.ts';
import { signBundle } from '../report/bundle-signature.ts';
import { manifestOf, summarize, type Summary } from '../report/bundle.ts';
import { MessagesError, ndjsonOf, RunRecord } from '../report/run-record.ts';
import { withWarnings } from '../report/junit-warnings.ts';
import { coverageOf, requiredCapabilities } from '../report/coverage.ts';
import { selectedTags, withCoverage } from '../report/coverage-verdict.ts';
import { CAUSE_FACTS } from '../report/causes.ts';
import { certificateProof, writeCertificationPage, type RunFacts } from './certificate.ts';
import { checkShards, type CheckedShard, type ShardSummary } from './merge-check.ts';

interface Shard {
  readonly dir: string;
  readonly summary: ShardSummary;
  readonly envelopes: Envelope[];
  readonly junit: string;
}

/** A checked shard's messages and junit.xml, each read to at most its listed size. */
function readShard(shard: CheckedShard): Shard {
  const { dir, sizes } = shard;
  const text = (file: string): string => readBundleText(dir, file, sizes.get(file) ?? 0);
  if (!sizes.has('messages.ndjson'))
    throw fieldError('ERR_BUNDLE', 'DIR', `${dir} has no messages.ndjson: not a certify bundle`);
  const notMessages = (why: string): Error => fieldError('ERR_BUNDLE', 'DIR', `${dir}/messages.ndjson: ${why}`);
  let record: RunRecord;
  try {
    record = RunRecord.fromNdjson(text('messages.ndjson'));
  } catch (err) {
    if (!(err instanceof MessagesError)) throw err;
    throw notMessages(err.message);
  }
  for (const kind of ['testRunStarted', 'testRunFinished'] as const) {
    if (record.envelopes.filter((e) => e[kind] !== undefined).length !== 1)
      throw notMessages(`not one run (${kind} must appear once)`);
  }
  const junit = sizes.has('junit.xml') ? text('junit.xml') : '';
  return { dir, summary: shard.summary, envelopes: record.envelopes, junit };
}

/** The shards' messages as one run: one meta and source per feature, the earliest start, the last finish. */
function mergedMessages(shards: readonly Shard[]): Envelope[] {
  const all = shards.flatMap((s) => s.envelopes);
  const seenUris = new Set<string>();
  const runCases = new Set(all.flatMap((e) => (e.testCase ? [e.testCase.pickleId] : [])));
  const starts = all.flatMap((e) => (e.testRunStarted ? [e.testRunStarted] : []));
  const finishes = all.flatMap((e) => (e.testRunFinished ? [e.testRunFinished] : []));
  const seconds = (t: { seconds: number; nanos: number }): number => t.seconds + t.nanos / 1e9;
  const first = starts.reduce((a, b) => (seconds(b.timestamp) < seconds(a.timestamp) ? b : a));
  const last = finishes.reduce((a, b) => (seconds(b.timestamp) > seconds(a.timestamp) ? b : a));
  const out: Envelope[] = [];
  let meta = false;
  for (const e of all) {
    if (e.meta) {
      if (!meta) out.push(e);
      meta = true;
    } else if (e.source || e.gherkinDocument) {
      const key = e.source ? `source ${e.source.uri}` : `document ${e.gherkinDocument?.uri}`;
      if (!seenUris.has(key)) out.push(e);
      seenUris.add(key);
    } else if (e.pickle) {
      // Every shard lists the pickles of the whole selection; only those it ran belong to it.
      if (runCases.has(e.pickle.id)) out.push(e);
    } else if (e.testRunStarted) {
      if (e.testRunStarted === first) out.push(e);
    } else if (e.testRunFinished) {
      if (e.testRunFinished === last)
        out.push({ testRunFinished: { ...last, success: finishes.every((f) => f.success) } });
    } else out.push(e);
  }
  // testRunFinished last, as a run ends.
  const end = out.findIndex((e) => e.testRunFinished);
  if (end >= 0) out.push(...out.splice(end, 1));
  return out;
}

/** What any shard's --require named (a shard's summary is hostile input: only known capability names count). */
function requiredOfShards(shards: readonly Shard[]): string[] {
  const named = shards.flatMap((s) => {
    const required: unknown = s.summary.coverage?.required;
    return Array.isArray(required) ? required.filter((n): n is string => typeof n === 'string') : [];
  });
  return requiredCapabilities(named, 'DIR');
}

/** junit.xml of the merged run: every shard's test suites under one root. */
function mergedJunit(shards: readonly Shard[]): string {
  // Each shard's own verdict properties and warning lines go: the merged run's are added once (withWarnings).
  const suites = shards
    .map((s) =>
      (/<testsuite[\s\S]*<\/testsuite>/.exec(s.junit)?.[0] ?? '')
        .replace(/\s*<properties>[\s\S]*?<\/properties>/, '')
        .replace(/\s*<system-out>[\s\S]*?<\/system-out>/, ''),
    )
    .filter((x) => x !== '');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join('\n')}\n</testsuites>\n`;
}

async function writeHtml(path: string, envelopes: readonly Envelope[]): Promise<void> {
  const html = new CucumberHtmlStream();
  const out = createWriteStream(path);
  html.pipe(out);
  for (const e of envelopes) html.write(e);
  html.end();
  await finished(out);
}

export interface MergeOptions {
  /** Signs the merged bundle (manifest.jws). */
  readonly signKey?: KeyObject | undefined;
}

export type MergeResult = { readonly summary: Summary } | { readonly refused: string };

export async function mergeBundles(
  dirs: readonly string[],
  outDir: string,
  options: MergeOptions = {},
): Promise<MergeResult> {
  const [first, ...more] = dirs;
  if (first === undefined) throw fieldError('ERR_BUNDLE', 'DIR', 'give the folders of the shards');
  if (existsSync(outDir) && readdirSync(outDir).length > 0)
    throw fieldError('ERR_OUT_DIR', '--out', `${outDir} exists and is not empty`);
  const checked = await checkShards([first, ...more]);
  if ('refused' in checked) return checked;
  const [head, ...others] = checked.shards;
  const shards: [Shard, ...Shard[]] = [readShard(head), ...others.map(readShard)];
  const mergedFrom = checked.shards.map((s) => s.record);
  try {
    return await writeMerged(outDir, shards, mergedFrom, options);
  } catch (err) {
    if (isPayconformError(err) || (err as NodeJS.ErrnoException).code === undefined) throw err;
    // A read-only or full disk: one line naming --out; what was written of the merge goes, the folder stays as it was.
    for (const file of MERGED_FILES) {
      try {
        rmSync(join(outDir, file), { force: true });
      } catch {
        // under a file (ENOTDIR) or unreadable: nothing of ours is there
      }
    }
    throw fieldError('ERR_IO', '--out', `cannot write ${outDir} (${(err as NodeJS.ErrnoException).code})`, err);
  }
}

/** Every file a merge writes, so a failed one removes exactly these. */
const MERGED_FILES = [
  'messages.ndjson',
  'summary.json',
  'junit.xml',
  'cucumber.html',
  'report.html',
  'manifest.json',
  'manifest.jws',
];

async function writeMerged(
  outDir: string,
  shards: readonly [Shard, ...Shard[]],
  mergedFrom: readonly CheckedShard['record'][],
  options: MergeOptions,
): Promise<MergeResult> {
  const [head] = shards;
  let envelopes: Envelope[];
  try {
    envelopes = mergedMessages(shards);
  } catch {
    throw fieldError(
      'ERR_BUNDLE',
      'DIR',
      `the shards' messages.ndjson are not the messages of cucumber runs (${shards.map((s) => s.dir).join(', ')})`,
    );
  }
  const record = RunRecord.of(envelopes);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'messages.ndjson'), ndjsonOf(envelopes));
  const { payconform } = head.summary.versions;
  const { live, strict, profile, selection, merchant, endpointIds, specSha256 } = head.summary;
  // The shards together ran the whole selection: coverage is the union of what they exercised.
  const summary = withCoverage(
    summarize(record, head.summary.target, { payconform }, CAUSE_FACTS),
    coverageOf(record.results, {
      selection: selectedTags(envelopes, ''),
      tags: selection,
      shard: null,
      profile,
      live,
      required: requiredOfShards(shards),
    }),
  );
  const facts: RunFacts = { live, strict, profile, selection, shard: null, merchant, endpointIds, specSha256 };
  const shardNames = mergedFrom.map((r) => r.shard);
  // Each shard's manifest hash is in summary.json, whose digest the merged manifest and signature cover.
  writeFileSync(
    join(outDir, 'summary.json'),
    `${JSON.stringify({ ...summary, ...facts, proof: certificateProof(record.results), mergedFrom }, null, 2)}\n`,
  );
  writeFileSync(join(outDir, 'junit.xml'), withWarnings(mergedJunit(shards), summary));
  await writeHtml(join(outDir, 'cucumber.html'), envelopes);
  writeCertificationPage(outDir, record, summary, {
    ...facts,
    selection: `${selection}, merged from shards ${shardNames.join(', ')}`,
  });
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify({ ...manifestOf(outDir), mergedFrom }, null, 2)}\n`);
  if (options.signKey) {
    await signBundle(outDir, options.signKey, {
      payconform,
      target: summary.target,
      status: summary.status,
      startedAt: summary.startedAt ?? '',
      finishedAt: summary.finishedAt ?? '',
    });
  }
  return { summary };
}
