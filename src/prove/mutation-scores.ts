/**
 * The mutation scores the proof record carries (docs/prove.md, "The proof record"): the signer's
 * (src/signing) and the rule book's (src/rules), computed per folder from Stryker's
 * reports/mutation/mutation.json when that run mutated the whole folder (its `mutate` globs); otherwise
 * the previous record's figure is carried with its own date and source. A number is never made up.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { MutationScore } from '../report/proof.ts';

export const MEASURED_FOLDERS = ['src/signing', 'src/rules'] as const;

interface StrykerReport {
  readonly files?: Record<string, { readonly mutants?: ReadonlyArray<{ readonly status?: string }> }>;
  /** The options of the run: `mutate` says which files it mutated (the report lists only files with mutants). */
  readonly config?: { readonly mutate?: readonly string[] };
}

/** Whether the run mutated all of `folder`: its glob, and no pattern leaving part of it out. */
const wholeFolder = (mutate: readonly string[], folder: string): boolean =>
  mutate.includes(`${folder}/**/*.ts`) && !mutate.some((p) => p.startsWith(`!${folder}/`));

/**
 * The score of each folder the report measured whole; a folder measured in part (`stryker run --mutate`
 * on some files) is left out rather than scored on a part.
 */
export function scoresFromReport(root: string, reportFile: string, folders: readonly string[]): MutationScore[] {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as StrykerReport;
  const files = new Map(
    Object.entries(report.files ?? {}).map(([path, file]) => [
      (isAbsolute(path) ? relative(root, path) : path).split('\\').join('/'),
      file.mutants ?? [],
    ]),
  );
  const measured = statSync(reportFile)
    .mtime.toISOString()
    .replace(/\.\d+Z$/, 'Z');
  return folders.flatMap((folder) => {
    if (!wholeFolder(report.config?.mutate ?? [], folder)) return [];
    const statuses = [...files].filter(([path]) => path.startsWith(`${folder}/`)).flatMap(([, ms]) => ms);
    const counted = (...kinds: string[]): number => statuses.filter((m) => kinds.includes(m.status ?? '')).length;
    const detected = counted('Killed', 'Timeout');
    const all = counted('Killed', 'Timeout', 'Survived', 'NoCoverage');
    if (all === 0) return [];
    return [
      {
        of: folder,
        score: Math.round((detected / all) * 10000) / 100,
        detected,
        counted: all,
        measured,
        source: `${relative(root, reportFile)} (Stryker's report, written ${measured})`,
      },
    ];
  });
}

/** The report's scores where it has them, else the previous record's, in the order of `folders`. */
export function mutationScores(
  fresh: readonly MutationScore[],
  previous: readonly MutationScore[],
  folders: readonly string[],
): MutationScore[] {
  return folders.flatMap((folder) => {
    const score = fresh.find((m) => m.of === folder) ?? previous.find((m) => m.of === folder);
    return score === undefined ? [] : [score];
  });
}
