/**
 * One typed collector of a cucumber run's messages, in memory (cucumber-js's EventDataCollector is
 * the model): the runner feeds it each envelope as the run emits it, and the summary, the bundle, the
 * certification page, progress and merge all read it, so nothing reads back a file the run just
 * wrote. A bundle's messages.ndjson from elsewhere (merge, prove's workers) is hostile: it is parsed
 * into the same collector, each envelope checked for the fields the collector reads.
 */
import type { Envelope, Meta, Pickle, Timestamp } from '@cucumber/messages';
import {
  FINDING_MEDIA_TYPE,
  NOT_APPLICABLE_MEDIA_TYPE,
  WARNING_MEDIA_TYPE,
  type Finding,
  type Warning,
} from './findings.ts';
import { checkedEnvelope, checkedFinding, checkedReason, checkedWarning, MessagesError } from './run-record-check.ts';

export { MessagesError };

export type Outcome = 'passed' | 'failed' | 'skipped' | 'undefined' | 'pending' | 'ambiguous' | 'unknown';

export interface ScenarioResult {
  readonly name: string;
  readonly uri: string;
  readonly tags: readonly string[];
  readonly outcome: Outcome;
  /** Where the gateway differed from an assumption, without failing (docs/certify.md). */
  readonly warnings: readonly Warning[];
  /** Why the scenario does not apply to this gateway (a profile's notApplicable, a base URL without a prefix). */
  readonly notApplicable?: string | undefined;
  /** The first failed step's message as cucumber gives it (stack included): for people to read, never parsed. */
  readonly failure?: string | undefined;
  /** What its steps found when they failed (src/report/findings.ts): a failure's cause is made from the first. */
  readonly findings?: readonly Finding[] | undefined;
  /** The scenario's text attachments (the redacted exchanges and curl); none when absent. */
  readonly texts?: readonly string[] | undefined;
}

// Worst first: a scenario's outcome is its worst step's.
const RANK: readonly Outcome[] = ['failed', 'ambiguous', 'undefined', 'pending', 'skipped', 'unknown', 'passed'];

export const failing = (outcome: Outcome): boolean =>
  outcome === 'failed' || outcome === 'ambiguous' || outcome === 'undefined';

/** messages.ndjson's text: a message a line, as cucumber's message formatter writes it. */
export const ndjsonOf = (envelopes: readonly Envelope[]): string =>
  envelopes.map((e) => `${JSON.stringify(e)}\n`).join('');

interface Attempt {
  readonly pickle: Pickle;
  outcome: Outcome;
  readonly warnings: Warning[];
  readonly findings: Finding[];
  notApplicable?: string;
  failure?: string;
  readonly texts: string[];
}

const isoOf = (t: Timestamp): string => new Date(t.seconds * 1000 + t.nanos / 1e6).toISOString();

function outcomeOf(status: string): Outcome {
  const outcome = status.toLowerCase();
  return RANK.find((o) => o === outcome) ?? 'unknown';
}

export class RunRecord {
  /** Every envelope, in the order received: what messages.ndjson holds. */
  readonly envelopes: Envelope[] = [];
  /** One result per finished scenario (the last attempt where a scenario was retried), in finishing order. */
  readonly results: ScenarioResult[] = [];
  meta: Meta | undefined;
  startedAt: string | undefined;
  finishedAt: string | undefined;
  /** Warnings attached so far, in any scenario (progress shows them as they come). */
  warningsSeen = 0;
  private readonly pickles = new Map<string, Pickle>();
  private readonly pickleOfCase = new Map<string, string>();
  private readonly attempts = new Map<string, Attempt>();

  /** A record of these envelopes (already typed: the run's own, or a merge of checked shards). */
  static of(envelopes: Iterable<Envelope>): RunRecord {
    const record = new RunRecord();
    for (const e of envelopes) record.add(e);
    return record;
  }

  /** A messages.ndjson from elsewhere, checked line by line; a MessagesError names the first bad line. */
  static fromNdjson(ndjson: string): RunRecord {
    const record = new RunRecord();
    ndjson.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new MessagesError(`line ${i + 1} is not JSON`);
      }
      try {
        record.add(checkedEnvelope(parsed));
      } catch (err) {
        if (err instanceof MessagesError) throw new MessagesError(`line ${i + 1}: ${err.message}`);
        throw err;
      }
    });
    return record;
  }

  /** Scenarios finished, and those among them that failed. */
  get finished(): number {
    return this.results.length;
  }

  get failed(): number {
    return this.results.filter((r) => failing(r.outcome)).length;
  }

  add(e: Envelope): void {
    this.envelopes.push(e);
    if (e.meta) this.meta = e.meta;
    else if (e.pickle) this.pickles.set(e.pickle.id, e.pickle);
    else if (e.testCase) this.pickleOfCase.set(e.testCase.id, e.testCase.pickleId);
    else if (e.testCaseStarted) this.start(e.testCaseStarted.id, e.testCaseStarted.testCaseId);
    else if (e.attachment) this.attach(e.attachment.testCaseStartedId, e.attachment.mediaType, e.attachment.body);
    else if (e.testStepFinished) {
      const { testCaseStartedId, testStepResult } = e.testStepFinished;
      const attempt = this.attempt(testCaseStartedId);
      const outcome = outcomeOf(testStepResult.status);
      if (RANK.indexOf(outcome) < RANK.indexOf(attempt.outcome)) attempt.outcome = outcome;
      if (outcome === 'failed') attempt.failure ??= testStepResult.message ?? 'failed';
    } else if (e.testCaseFinished && !e.testCaseFinished.willBeRetried)
      this.finish(e.testCaseFinished.testCaseStartedId);
    else if (e.testRunStarted) this.startedAt = isoOf(e.testRunStarted.timestamp);
    else if (e.testRunFinished) this.finishedAt = isoOf(e.testRunFinished.timestamp);
  }

  private start(id: string, testCaseId: string): void {
    const pickle = this.pickles.get(this.pickleOfCase.get(testCaseId) ?? '');
    if (pickle === undefined) throw new MessagesError(`test case ${testCaseId} started before its scenario was listed`);
    this.attempts.set(id, { pickle, outcome: 'passed', warnings: [], findings: [], texts: [] });
  }

  private attempt(testCaseStartedId: string | undefined): Attempt {
    const attempt = this.attempts.get(testCaseStartedId ?? '');
    if (attempt === undefined) throw new MessagesError(`a message names test case ${testCaseStartedId}, never started`);
    return attempt;
  }

  private attach(testCaseStartedId: string | undefined, mediaType: string, body: string): void {
    if (mediaType === WARNING_MEDIA_TYPE) {
      this.attempt(testCaseStartedId).warnings.push(checkedWarning(body));
      this.warningsSeen++;
    } else if (mediaType === FINDING_MEDIA_TYPE) this.attempt(testCaseStartedId).findings.push(checkedFinding(body));
    else if (mediaType === NOT_APPLICABLE_MEDIA_TYPE)
      this.attempt(testCaseStartedId).notApplicable = checkedReason(body);
    else if (mediaType === 'text/plain' && testCaseStartedId !== undefined)
      this.attempt(testCaseStartedId).texts.push(body);
  }

  private finish(id: string): void {
    const { pickle, outcome, warnings, findings, notApplicable, failure, texts } = this.attempt(id);
    this.results.push({
      name: pickle.name,
      uri: pickle.uri,
      tags: pickle.tags.map((t) => t.name),
      outcome,
      warnings,
      notApplicable,
      failure,
      findings,
      texts,
    });
  }
}
