/**
 * A received certify bundle as `bundle diff` reads it: intact first (every file against its
 * manifest, bundle-signature.ts), then its scenarios from messages.ndjson (checked as hostile by
 * RunRecord) and a few facts of summary.json, each taken only as a short string.
 */
import { fieldError } from '../errors.ts';
import { readBundleText } from './bundle-files.ts';
import { verifyBundle } from './bundle-signature.ts';
import { CAPABILITY_NAMES } from './coverage.ts';
import { RunRecord, type ScenarioResult } from './run-record.ts';
import type { Envelope } from '@cucumber/messages';

export interface BundleView {
  readonly dir: string;
  readonly payconform: string;
  readonly profile: string;
  /** The verdict summary.json claims: only ever made worse by what the messages show (bundle summary). */
  readonly status: string;
  readonly target: string;
  /** The tag expression the run selected ("" for all). */
  readonly selection: string;
  readonly live: boolean;
  readonly shard: string | null;
  /** The capabilities --require named, those payconform knows only. */
  readonly required: readonly string[];
  readonly results: readonly ScenarioResult[];
  readonly envelopes: readonly Envelope[];
}

/** A whole run's messages: far above any suite's, bounded all the same. */
const MESSAGES_LIMIT = 512 * 1024 * 1024;

/** A summary field as a short string, or "unknown" when the bundle holds anything else there. */
function fact(value: unknown): string {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, 80) : 'unknown';
}

export async function readBundleView(dir: string): Promise<BundleView> {
  const check = await verifyBundle(dir);
  if (check.problems.length > 0)
    throw fieldError(
      'ERR_BUNDLE',
      'DIR',
      `${dir} is not intact (${check.problems[0]}): its results cannot be compared`,
    );
  let summary: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readBundleText(dir, 'summary.json'));
    if (parsed !== null && typeof parsed === 'object') summary = parsed as Record<string, unknown>;
  } catch {
    /* an intact bundle without a readable summary: its facts read "unknown" */
  }
  let record: RunRecord;
  try {
    record = RunRecord.fromNdjson(readBundleText(dir, 'messages.ndjson', MESSAGES_LIMIT));
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUNDLE') throw err;
    throw fieldError('ERR_BUNDLE', 'DIR', `${dir}/messages.ndjson is not the messages of a cucumber run`);
  }
  const versions = summary.versions !== null && typeof summary.versions === 'object' ? summary.versions : {};
  const coverage = summary.coverage !== null && typeof summary.coverage === 'object' ? summary.coverage : {};
  const required: unknown = (coverage as Record<string, unknown>).required;
  return {
    dir,
    payconform: fact((versions as Record<string, unknown>).payconform),
    profile: fact(summary.profile),
    status: fact(summary.status),
    target: fact(summary.target),
    selection: typeof summary.selection === 'string' ? summary.selection.slice(0, 500) : '',
    live: summary.live === true,
    shard: typeof summary.shard === 'string' && /^\d{1,4}\/\d{1,4}$/.test(summary.shard) ? summary.shard : null,
    required: Array.isArray(required) ? CAPABILITY_NAMES.filter((c) => required.includes(c)) : [],
    results: record.results,
    envelopes: record.envelopes,
  };
}
