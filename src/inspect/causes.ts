/**
 * inspect's failures grouped by mistake, as certify groups its own (src/report/causes.ts): every
 * failed check of every request is traced to its rule and, for a signature, the diagnosed mistake,
 * so twelve requests signed with the amount in decimal are one cause with twelve requests under it.
 */
import { groupCauses, type Cause, type Traced } from '../report/causes.ts';
import { REQUEST_CAUSE_FACTS } from '../report/causes.ts';
import type { InspectRecord } from './listener.ts';

const answerOf = (r: InspectRecord): string =>
  'status' in r.answer
    ? `answered ${r.answer.status}${r.answer.errorCode ? ` ${r.answer.errorCode}` : ''}`
    : 'no answer';

/** Each failed check of each request, under its rule and the first mistake diagnosed. */
export function inspectCauses(records: readonly InspectRecord[]): Cause[] {
  const traced = records.flatMap((r) =>
    r.verdict.checks
      .filter((c) => c.outcome === 'fail')
      .map((c): Traced => ({
        rule: c.id,
        kind: 'sent-wrong',
        mistake: c.signature?.diagnoses[0],
        entry: { name: `#${r.seq} ${r.verdict.operation ?? r.path}`, uri: r.path, exchange: answerOf(r) },
        blocked: false,
      })),
  );
  return groupCauses(traced, REQUEST_CAUSE_FACTS);
}
