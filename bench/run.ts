/**
 * `npm run bench`: runs every benchmark module below and prints one table. Ours and each peer run
 * in this process, on the same inputs, interleaved over several rounds (bench/measure.ts); the
 * ratio is ours ÷ peer in ops/s, so 1.5× means ours does 1.5 times as many operations per second.
 * Add a benchmark by writing a module that exports a BenchModule and listing it in MODULES.
 */
import { availableParallelism, cpus } from 'node:os';
import { measureGroup, pairedRatio, spread, type BenchModule, type Figure, type Measured, type Settings } from './measure.ts';
import { signingBench } from './signing.bench.ts';
import { vectorsCheckBench } from './vectors-check.bench.ts';
import { mockBench } from './mock.bench.ts';

const MODULES: readonly BenchModule[] = [signingBench, vectorsCheckBench, mockBench];

// 25 rounds of 60 ms per contender after a 300 ms warm-up: about 20 s for the signing groups. On a
// shared 2-core VM the speed swings by ±25% over fractions of a second; many short rounds, paired
// ratios and medians keep a ratio within about ±10% from run to run.
const SETTINGS: Settings = { rounds: 25, warmupMs: 300, roundMs: 60 };

interface Row {
  name: string;
  ours: Measured;
  peer: Measured;
  ratio: number;
  target: number | null;
}

const fmtOps = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));
const fmtRatio = (r: number): string => `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`;

function verdict(row: Row): string {
  if (row.target === null) return 'info';
  return row.ratio >= row.target ? 'meets' : 'misses';
}

function printTable(rows: readonly Row[]): void {
  const header = ['name', 'ops/s', 'peer', 'peer ops/s', 'ratio', 'target', 'verdict'];
  const cells = rows.map((r) => [
    r.name,
    fmtOps(r.ours.opsPerSec),
    r.peer.label,
    fmtOps(r.peer.opsPerSec),
    fmtRatio(r.ratio),
    r.target === null ? '—' : `≥ ${r.target}×`,
    verdict(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const numeric = new Set([1, 3, 4]);
  const line = (c: string[]): string => c.map((s, i) => (numeric.has(i) ? s.padStart(widths[i]!) : s.padEnd(widths[i]!))).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

async function main(): Promise<void> {
  const cpu = cpus();
  console.log(`Node ${process.version} (${process.platform}/${process.arch}), V8 ${process.versions.v8}`);
  console.log(`CPU: ${cpu[0]?.model.trim() ?? 'unknown'}, ${cpu.length} cores (${availableParallelism()} available)`);
  console.log(`${SETTINGS.rounds} interleaved rounds of ${SETTINGS.roundMs} ms per contender after ${SETTINGS.warmupMs} ms warm-up`);
  console.log('ops/s: median round; ratio: median over rounds of ours ÷ peer ops/s, timed back to back (so not exactly ops/s ÷ peer ops/s)\n');

  const started = Date.now();
  const rows: Row[] = [];
  const figures: Figure[] = [];
  const noisy: string[] = [];
  for (const module of MODULES) {
    if (module.figures) figures.push(...(await module.figures()));
    for (const group of await module.groups()) {
      group.verify(); // outputs must be equal before any timing means anything
      process.stderr.write(`  measuring ${group.title} …\n`);
      const measured = measureGroup(group, SETTINGS);
      for (const m of measured.values()) if (spread(m) > 0.25) noisy.push(`${group.title} / ${m.label} ${(spread(m) * 100).toFixed(0)}%`);
      for (const cmp of group.rows) {
        const ours = measured.get(cmp.ours)!;
        // Fastest peer first: the target applies to it; slower peers are shown for information.
        const peers = cmp.peers.map((p) => measured.get(p)!).sort((a, b) => b.opsPerSec - a.opsPerSec);
        peers.forEach((peer, i) => rows.push({ name: cmp.name, ours, peer, ratio: pairedRatio(ours, peer), target: i === 0 ? cmp.target : null }));
      }
    }
  }

  console.log('');
  printTable(rows);
  if (figures.length) {
    console.log('');
    const width = Math.max(...figures.map((f) => f.name.length));
    for (const f of figures) {
      const target = f.max === null ? '—' : `≤ ${f.max} ${f.unit}`;
      const meets = f.max === null ? 'info' : f.value <= f.max ? 'meets' : 'misses';
      console.log(`${f.name.padEnd(width)}  ${f.value.toFixed(2).padStart(8)} ${f.unit.padEnd(3)}  target ${target.padEnd(10)}  ${meets}`);
    }
  }
  const targeted = rows.filter((r) => r.target !== null);
  const figuresTargeted = figures.filter((f) => f.max !== null);
  const met = targeted.filter((r) => verdict(r) === 'meets').length + figuresTargeted.filter((f) => f.value <= f.max!).length;
  console.log(`\n${met} of ${targeted.length + figuresTargeted.length} targets met; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (noisy.length > 0) console.log(`noisy (interquartile range of rounds over 25% of the median): ${noisy.join('; ')}`);
}

await main();
