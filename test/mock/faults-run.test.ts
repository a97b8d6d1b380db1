// Faults for a whole run (`mock --faults FILE`, a profile's `faults`; docs/mock.md "Faults for a whole run"): seeded,
// so the same seed and the same requests give the same faults and another seed others; the rates hold over a few
// hundred requests; latency delays answers; a bad file is one line naming the field and the rule, exit 2.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMock } from '../../src/mock/server.ts';
import { FaultPlan } from '../../src/gateway/faults.ts';
import type { FaultSettings } from '../../src/gateway/fault-settings.ts';
import { profileOf } from '../../src/suite/profile.ts';
import { sendRaw, type Seen } from '../support/faulted-exchange.ts';
import { runCli } from '../support/cli.ts';

const NO_RATES = { timeout: 0, reset: 0, 'lost-answer': 0, '502': 0, '503': 0 };
const settings = (seed: number, rates: Partial<FaultSettings['rates']>, latencyMs = { min: 0, max: 0 }) => ({
  seed,
  latencyMs,
  rates: { ...NO_RATES, ...rates },
});

/** What the client saw, in a word: the status, or how it ended without one. */
const word = (s: Seen): string => (s.ended === 'whole' ? String(s.status) : `${s.ended}:${s.error ?? s.status}`);

/** The words of `n` sales sent one after another to a mock started with these faults. */
async function session(faults: FaultSettings, n: number): Promise<string[]> {
  const mock = await startMock({ faults });
  try {
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(word(await sendRaw(mock.url, 'SALE', [['client_orderid', `o-${i}`]])));
    return words;
  } finally {
    await mock.close();
  }
}

const CHAOS = { reset: 0.1, 'lost-answer': 0.1, '502': 0.2, '503': 0.1 };

describe('faults for a whole run', () => {
  it('the same seed and requests give the same faults; another seed, others', async () => {
    const first = await session(settings(42, CHAOS), 60);
    const again = await session(settings(42, CHAOS), 60);
    const other = await session(settings(43, CHAOS), 60);
    assert.deepEqual(again, first);
    assert.notDeepEqual(other, first);
    assert.ok(new Set(first).size >= 4, first.join(' '));
  });

  it('honours the rates over a few hundred requests', async () => {
    const n = 400;
    const words = await session(settings(7, CHAOS), n);
    const count = (w: string): number => words.filter((x) => x === w).length;
    // Expected n × rate; 4.5 standard deviations of a binomial either way: a wrong rate fails, chance does not.
    const near = (seen: number, rate: number, what: string): void => {
      const sd = Math.sqrt(n * rate * (1 - rate));
      assert.ok(Math.abs(seen - n * rate) <= 4.5 * sd, `${what}: ${seen} of ${n}, expected about ${n * rate}`);
    };
    near(count('502'), 0.2, '502');
    near(count('503'), 0.1, '503');
    near(count('error:ECONNRESET'), 0.1, 'reset');
    near(count('cut:ECONNRESET'), 0.1, 'lost answer');
    near(count('200'), 0.5, 'answered');
  });

  it('a time-out rate of 1 times every request out; latency delays every answer', async () => {
    const held = await startMock({ faults: settings(1, { timeout: 1 }) });
    try {
      const seen = await sendRaw(held.url, 'SALE', [['client_orderid', 'a']], 200);
      assert.deepEqual([seen.ended, seen.error], ['error', 'AbortError']);
    } finally {
      await held.close();
    }
    const slow = await startMock({ faults: settings(1, {}, { min: 150, max: 150 }) });
    try {
      const seen = await sendRaw(slow.url, 'STATUS', [['orderid', '1']]);
      assert.equal(seen.ended, 'whole');
      assert.ok(seen.ms >= 145 && seen.ms < 1_500, `${seen.ms} ms`);
    } finally {
      await slow.close();
    }
  });

  it('draws latency uniformly between min and max, from the seed', () => {
    const plan = new FaultPlan(settings(9, {}, { min: 10, max: 20 }));
    const delays = Array.from({ length: 500 }, () => plan.draw()?.delayMs ?? 0);
    assert.equal(Math.min(...delays), 10);
    assert.equal(Math.max(...delays), 20);
  });
});

describe("a faults file and a profile's faults section", () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'payconform-faults-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const bad: Array<[string, string, RegExp]> = [
    ['not JSON', '{', /: is not JSON/],
    ['a rate over 1', '{"rates": {"timeout": 1.5}}', /: \/rates\/timeout: must be a number 0\.\.1$/],
    ['rates over 1 in all', '{"rates": {"502": 0.6, "503": 0.6}}', /: \/rates: must add up to at most 1/],
    ['an unknown fault', '{"rates": {"slowness": 0.1}}', /: \/rates\/slowness: is not a fault/],
    ['a bad seed', '{"seed": -1}', /: \/seed: must be a whole number 0\.\.4294967295$/],
    ['latency over the cap', '{"latencyMs": 60001}', /: \/latencyMs: must be whole milliseconds/],
    ['min over max', '{"latencyMs": {"min": 5, "max": 2}}', /: \/latencyMs\/max: must be whole/],
    ['an unknown setting', '{"sead": 1}', /: \/sead: is not a faults setting/],
  ];
  for (const [what, text, message] of bad)
    it(`mock --faults with ${what}: one line naming the field and the rule, exit 2`, async () => {
      const file = join(dir, 'faults.json');
      writeFileSync(file, text);
      const { code, err, out } = await runCli(['mock', '--faults', file]);
      assert.equal(code, 2);
      assert.equal(out, '');
      assert.equal(err.trimEnd().split('\n').length, 1, err);
      assert.match(err.trimEnd(), message);
      assert.match(err, /--faults /);
    });

  it('inspect --faults is refused with --upstream', async () => {
    const file = join(dir, 'ok.json');
    writeFileSync(file, '{}');
    const { code, err } = await runCli(['inspect', '--faults', file, '--upstream', 'http://127.0.0.1:9']);
    assert.equal(code, 2);
    assert.match(err, /--faults: applies to the embedded mock only/);
  });

  it("a profile's faults are read by the same rules, named under /faults", () => {
    const profile = profileOf({ faults: { seed: 5, rates: { '503': 0.5 } } }, 'p.json');
    assert.equal(profile.faults?.seed, 5);
    assert.equal(profile.faults?.rates['503'], 0.5);
    assert.throws(
      () => profileOf({ faults: { rates: { reset: 2 } } }, 'p.json'),
      /^PayconformError: --profile p\.json: \/faults\/rates\/reset: must be a number 0\.\.1$/,
    );
    assert.equal(profileOf({}, 'p.json').faults, undefined);
  });
});
