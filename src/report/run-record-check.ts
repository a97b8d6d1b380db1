/**
 * Checks a cucumber message from a bundle made elsewhere before the run record reads it: the fields
 * the record reads must be there with their types, and a step's warning, finding or not-applicable
 * attachment must be the JSON the steps write. Anything else is a MessagesError naming what is wrong.
 */
import type { Envelope } from '@cucumber/messages';
import { withArticle } from '../article.ts';
import { CAUSE_KINDS, type Finding, type FindingExchange, type Warning } from './findings.ts';

export class MessagesError extends Error {}

type Shape = Record<string, 'string' | 'number' | 'boolean' | 'object' | 'list' | 'string?'>;

/** The fields of each kind of envelope the record reads, with their types. */
const READ: Readonly<Record<string, Shape>> = {
  pickle: { id: 'string', name: 'string', uri: 'string', tags: 'list' },
  testCase: { id: 'string', pickleId: 'string' },
  testCaseStarted: { id: 'string', testCaseId: 'string' },
  attachment: { mediaType: 'string', body: 'string', testCaseStartedId: 'string?' },
  testStepFinished: { testCaseStartedId: 'string', testStepResult: 'object' },
  testCaseFinished: { testCaseStartedId: 'string', willBeRetried: 'boolean' },
  testRunStarted: { timestamp: 'object' },
  testRunFinished: { timestamp: 'object' },
  meta: { implementation: 'object', runtime: 'object' },
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function checkShape(what: string, value: unknown, shape: Shape): Record<string, unknown> {
  if (!isObject(value)) throw new MessagesError(`${what} is not an object`);
  for (const [field, type] of Object.entries(shape)) {
    const v = value[field];
    if (type.endsWith('?') && v === undefined) continue;
    const want = type.replace('?', '');
    const ok = want === 'list' ? Array.isArray(v) : want === 'object' ? isObject(v) : typeof v === want;
    if (!ok) throw new MessagesError(`${what}.${field} is not ${withArticle(want)}`);
  }
  return value;
}

const TIMESTAMP: Shape = { seconds: 'number', nanos: 'number' };

/** The envelope, once the fields the record reads are there with their types. */
export function checkedEnvelope(value: unknown): Envelope {
  if (!isObject(value)) throw new MessagesError('not a cucumber message');
  for (const [kind, shape] of Object.entries(READ)) {
    if (value[kind] === undefined) continue;
    const body = checkShape(kind, value[kind], shape);
    if (kind === 'pickle') {
      const tags: unknown[] = Array.isArray(body.tags) ? body.tags : [];
      tags.forEach((t, i) => checkShape(`pickle.tags[${i}]`, t, { name: 'string' }));
    }
    if (kind === 'meta')
      for (const product of ['implementation', 'runtime'])
        checkShape(`meta.${product}`, body[product], { name: 'string', version: 'string?' });
    if (kind === 'testStepFinished') checkShape(`${kind}.testStepResult`, body.testStepResult, { status: 'string' });
    if (kind === 'testRunStarted' || kind === 'testRunFinished')
      checkShape(`${kind}.timestamp`, body.timestamp, TIMESTAMP);
  }
  // Checked above for every field the record reads; the rest of the message is carried, not read.
  return value;
}

function parsedBody(body: string, what: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new MessagesError(`${what} attachment is not JSON`);
  }
  if (!isObject(parsed)) throw new MessagesError(`${what} attachment is not an object`);
  return parsed;
}

/** A step's warning attachment (steps/support/verdict.ts writes it). */
export function checkedWarning(body: string): Warning {
  const w = checkShape('warning', parsedBody(body, 'a warning'), {
    assumption: 'string',
    check: 'string',
    expected: 'string',
    actual: 'string',
    rule: 'string?',
  });
  const warning = { assumption: String(w.assumption), check: String(w.check), expected: String(w.expected) };
  const rule = typeof w.rule === 'string' ? { rule: w.rule } : {};
  return { ...warning, actual: String(w.actual), ...rule };
}

/** An optional object field of a finding, checked against its shape. */
function optionalShape(
  value: Record<string, unknown>,
  field: string,
  shape: Shape,
): Record<string, unknown> | undefined {
  return value[field] === undefined ? undefined : checkShape(`finding.${field}`, value[field], shape);
}

/** A step's finding attachment (steps/support/verdict.ts writes it): only its own fields are kept. */
export function checkedFinding(body: string): Finding {
  const f = checkShape('finding', parsedBody(body, 'a finding'), {
    kind: 'string',
    rule: 'string?',
    check: 'string',
    expected: 'string',
    actual: 'string',
    expectedCode: 'string?',
  });
  const kind = CAUSE_KINDS.find((k) => k === f.kind);
  if (kind === undefined) throw new MessagesError(`finding.kind is not one of ${CAUSE_KINDS.join(', ')}`);
  const x = optionalShape(f, 'exchange', { operation: 'string', status: 'number', errorCode: 'string?' });
  const exchange: FindingExchange | undefined =
    x === undefined
      ? undefined
      : {
          operation: String(x.operation),
          status: Number(x.status),
          ...(typeof x.errorCode === 'string' ? { errorCode: x.errorCode } : {}),
        };
  const p = optionalShape(f, 'prerequisite', { operation: 'string', status: 'number' });
  return {
    kind,
    ...(typeof f.rule === 'string' ? { rule: f.rule } : {}),
    check: String(f.check),
    expected: String(f.expected),
    actual: String(f.actual),
    ...(typeof f.expectedCode === 'string' ? { expectedCode: f.expectedCode } : {}),
    ...(exchange === undefined ? {} : { exchange }),
    ...(p === undefined ? {} : { prerequisite: { operation: String(p.operation), status: Number(p.status) } }),
  };
}

/** A not-applicable attachment's reason. */
export function checkedReason(body: string): string {
  return String(checkShape('not applicable', parsedBody(body, 'a not-applicable'), { reason: 'string' }).reason);
}
