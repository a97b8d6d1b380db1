/**
 * The expected-failure ledger: for each defect of the mock, features/expected-failures/<defect>.json
 * lists the scenarios that must fail against it, each entry by exact scenario name, by cucumber tag
 * expression, both, or `all`, with the reason it must fail, and the causes their failures are traced to
 * (docs/prove.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import parseTagExpression from '@cucumber/tag-expressions';
import { Ajv } from 'ajv';
import { PayconformError } from '../errors.ts';
import { present } from '../present.ts';
import { DEFECT_NAMES, type Defect } from '../mock/index.ts';
import type { ScenarioResult } from '../report/bundle.ts';

export interface LedgerEntry {
  /** The scenario's name exactly as cucumber shows it (outline rows with their values filled in). */
  readonly name?: string;
  /** A cucumber tag expression every matched scenario satisfies. */
  readonly tags?: string;
  /** Every scenario: for a defect no answer survives. */
  readonly all?: true;
  /** Why the defect must make these scenarios fail. */
  readonly why: string;
}

export interface Ledger {
  readonly file: string;
  readonly defect: Defect;
  readonly mustFail: readonly LedgerEntry[];
  /**
   * The rule ids the run's failures are traced to (report/causes.ts), exactly; with `all`, the ids that
   * must be among them (an answer nobody can read fails for many reasons).
   */
  readonly causes?: readonly string[];
}

const SCHEMA = {
  type: 'object',
  required: ['defect', 'mustFail'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    defect: { enum: DEFECT_NAMES },
    causes: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: '^[a-z0-9-]+$' } },
    mustFail: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['why'],
        // Either `all` alone, or a name and/or a tag expression.
        oneOf: [
          { required: ['all'], not: { anyOf: [{ required: ['name'] }, { required: ['tags'] }] } },
          { anyOf: [{ required: ['name'] }, { required: ['tags'] }], not: { required: ['all'] } },
        ],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1 },
          tags: { type: 'string', minLength: 1 },
          all: { const: true },
          why: { type: 'string', minLength: 10 },
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true }).compile(SCHEMA);

const ledgerError = (file: string, pointer: string, rule: string): PayconformError =>
  new PayconformError('ERR_LEDGER', `${file}: ${pointer || '/'}: ${rule}`, { field: `${file}${pointer}`, rule });

/** Reads and checks every ledger in `dir`: one per defect, named after it, each entry's tag expression parseable. */
export function readLedgers(dir: string): Map<Defect, Ledger> {
  const ledgers = new Map<Defect, Ledger>();
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const file = join(dir, name);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw ledgerError(file, '', `is not JSON (${(err as Error).message})`);
    }
    if (!validate(data)) {
      const e = present(validate.errors?.[0], 'the first schema error');
      throw ledgerError(
        file,
        e.instancePath,
        e.keyword === 'enum'
          ? 'must name a defect listed by payconform mock --list-defects'
          : (e.message ?? 'is invalid'),
      );
    }
    const ledger = { file, ...(data as Omit<Ledger, 'file'>) };
    if (basename(name, '.json') !== ledger.defect)
      throw ledgerError(file, '/defect', `must match the file name (${basename(name, '.json')})`);
    ledger.mustFail.forEach((entry, i) => {
      if (entry.tags === undefined) return;
      try {
        parseTagExpression(entry.tags);
      } catch (err) {
        throw ledgerError(file, `/mustFail/${i}/tags`, `is not a tag expression (${(err as Error).message})`);
      }
    });
    ledgers.set(ledger.defect, ledger);
  }
  const missing = DEFECT_NAMES.filter((d) => !ledgers.has(d));
  if (missing.length > 0)
    throw ledgerError(
      join(dir, `${missing[0]}.json`),
      '',
      `is missing: every defect needs a ledger (${missing.join(', ')})`,
    );
  return ledgers;
}

/** The entry's test: does this scenario fall under it? */
export function entryMatcher(entry: LedgerEntry): (scenario: ScenarioResult) => boolean {
  const expression = entry.tags === undefined ? undefined : parseTagExpression(entry.tags);
  if (entry.all) return () => true;
  return (scenario) =>
    (entry.name === undefined || entry.name === scenario.name) &&
    (expression === undefined || expression.evaluate([...scenario.tags]));
}
