/**
 * `npm run bench`: runs every benchmark module below and prints one table. Ours and each peer run
 * in this process, on the same inputs, interleaved over several rounds (bench/measure.ts); the
 * ratio is ours ÷ peer in ops/s, so 1.5× means ours does 1.5 times as many operations per second.
 * Add a benchmark by writing a module that exports a BenchModule and listing it in MODULES; arguments
 * name the modules to run (`npm run bench -- mock`), none runs them all.
 */
import { availableParallelism, cpus } from 'node:os';
import {
  figureRatio,
  measureGroup,
  pairedRatio,
  spread,
  type BenchModule,
  type Figure,
  type Settings,
} from './measure.ts';
import { signingBench } from './signing.bench.ts';
import { vectorsCheckBench } from './vectors-check.bench.ts';
import { mockBench } from './mock.bench.ts';
import { certifyBench } from './certify.bench.ts';
import { startupBench } from './startup.bench.ts';
import { prismBench } from './prism.bench.ts';

const MODULES: Readonly<Record<string, BenchModule>> = {
  signing: signingBench,
  'vectors-check': vectorsCheckBench,
  mock: mockBench,
  prism: prismBench,
  certify: certifyBench,
  startup: startupBench,
};

// `npm run bench -- mock prism` runs only those modules (a short check on a shared machine); none: all.
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in MODULES));
if (unknown.length > 0) {
  console.error(`bench: unknown module ${unknown.join(', ')} (modules: ${Object.keys(MODULES).join(', ')})`);
  process.exit(2);
}
const selected = Object.entries(MODULES).filter(([name]) => chosen.length === 0 || chosen.includes(name));

// 25 rounds of 60 ms per contender after a 300 ms warm-up: about 20 s for the signing groups. On a
// shared 2-core VM the speed swings by ±25% over fractions of a second; many short rounds, paired
// ratios and medians keep a ratio within about ±10% from run to run.
const SETTINGS: Settings = { rounds: 25, warmupMs: 300, roundMs: 60 };

/** One line of the table: a timed comparison or a figure, with its peer, ratio and target. */
interface Row {
  readonly name: string;
  readonly ours: string;
  readonly peer: string;
  readonly peerValue: string;
  readonly ratio: string;
  readonly target: string;
  /** undefined: no target (informational). */
  readonly meets: boolean | undefined;
}

const fmtOps = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));
const fmtRatio = (r: number): string => `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`;
const fmtValue = (v: number, unit: string): string => `${unit === '/s' ? fmtOps(v) : v.toFixed(2)} ${unit}`;

function figureRow(f: Figure): Row {
  const ratio = figureRatio(f);
  const targets = [
    f.max === undefined ? undefined : { text: `≤ ${fmtValue(f.max, f.unit)}`, ok: f.value <= f.max },
    f.min === undefined ? undefined : { text: `≥ ${fmtValue(f.min, f.unit)}`, ok: f.value >= f.min },
    f.peer?.minRatio === undefined ? undefined : { text: `≥ ${f.peer.minRatio}×`, ok: ratio! >= f.peer.minRatio },
    f.peer?.maxTimesPeer === undefined
      ? undefined
      : { text: `≤ ${f.peer.maxTimesPeer}× peer's`, ok: ratio! >= 1 / f.peer.maxTimesPeer },
  ].filter((t) => t !== undefined);
  return {
    name: f.name,
    ours: fmtValue(f.value, f.unit),
    peer: f.peer?.label ?? '—',
    peerValue: f.peer ? fmtValue(f.peer.value, f.unit) : '—',
    ratio: ratio === undefined ? '—' : fmtRatio(ratio),
    target: targets.map((t) => t.text).join(', ') || '—',
    meets: targets.length === 0 ? undefined : targets.every((t) => t.ok),
  };
}

function printTable(rows: readonly Row[]): void {
  const header = ['benchmark', 'ours', 'peer', 'peer value', 'ratio', 'target', 'verdict'];
  const cells = rows.map((r) => [
    r.name,
    r.ours,
    r.peer,
    r.peerValue,
    r.ratio,
    r.target,
    r.meets === undefined ? 'info' : r.meets ? 'meets' : 'misses',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const numeric = new Set([1, 3, 4]);
  const line = (c: string[]): string =>
    c
      .map((s, i) => (numeric.has(i) ? s.padStart(widths[i]!) : s.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

async function main(): Promise<void> {
  const cpu = cpus();
  console.log(`Node ${process.version} (${process.platform}/${process.arch}), V8 ${process.versions.v8}`);
  console.log(`CPU: ${cpu[0]?.model.trim() ?? 'unknown'}, ${cpu.length} cores (${availableParallelism()} available)`);
  const { rounds, roundMs, warmupMs } = SETTINGS;
  console.log(`${rounds} interleaved rounds of ${roundMs} ms per contender after ${warmupMs} ms warm-up`);
  console.log('ops/s: median round; ratio: median over rounds of ours ÷ peer ops/s, timed back to back');
  console.log('(so not exactly ops/s ÷ peer ops/s); servers take turns in rounds, paired the same way;');
  console.log('figures (commands, servers): ratio oriented so that above 1× means ours is better\n');

  const started = Date.now();
  const rows: Row[] = [];
  const noisy: string[] = [];
  for (const [, module] of selected) {
    for (const group of await module.groups()) {
      group.verify(); // outputs must be equal before any timing means anything
      process.stderr.write(`  measuring ${group.title} …\n`);
      const measured = measureGroup(group, SETTINGS);
      for (const m of measured.values())
        if (spread(m) > 0.25) noisy.push(`${group.title} / ${m.label} ${(spread(m) * 100).toFixed(0)}%`);
      for (const cmp of group.rows) {
        const ours = measured.get(cmp.ours)!;
        // Fastest peer first: the target applies to it; slower peers are shown for information.
        const peers = cmp.peers.map((p) => measured.get(p)!).sort((a, b) => b.opsPerSec - a.opsPerSec);
        peers.forEach((peer, i) => {
          const ratio = pairedRatio(ours, peer);
          const target = i === 0 ? cmp.target : null;
          rows.push({
            name: i === 0 ? cmp.name : '  same',
            ours: `${fmtOps(ours.opsPerSec)} /s`,
            peer: peer.label,
            peerValue: `${fmtOps(peer.opsPerSec)} /s`,
            ratio: fmtRatio(ratio),
            target: target === null ? '—' : `≥ ${target}×`,
            meets: target === null ? undefined : ratio >= target,
          });
        });
      }
    }
    if (module.figures) rows.push(...(await module.figures()).map(figureRow));
  }

  console.log('');
  printTable(rows);
  const targeted = rows.filter((r) => r.meets !== undefined);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\n${targeted.filter((r) => r.meets).length} of ${targeted.length} targets met; ${seconds} s`);
  if (noisy.length > 0)
    console.log(`noisy (interquartile range of rounds over 25% of the median): ${noisy.join('; ')}`);
}

await main();
