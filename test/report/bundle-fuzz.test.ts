// Fuzzing received bundles: whatever is done to a bundle's files, `bundle verify` never says exit 0
// for a changed bundle, and neither verify nor merge ever ends in an internal error or more than
// one line. Shards come from real certify runs; each case works on a fresh copy.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { bundleSigningKey, signBundle } from '../../src/report/bundle-signature.ts';
import { manifestOf } from '../../src/report/bundle.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { runCli } from '../support/cli.ts';
import { fcParams } from '../seed.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-bundle-fuzz-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const quiet = { log: () => {}, progress: new PassThrough().resume() };
const TAGS = '@endpoint:SALE and @positive or @endpoint:STATUS and @positive';
const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const pub = join(dir, 'merchant.pub.pem');
writeFileSync(pub, publicKey);

/** One change to one file of a bundle. */
type Mutation =
  | { kind: 'flip'; file: number; at: number; bit: number }
  | { kind: 'truncate'; file: number; at: number }
  | { kind: 'append'; file: number; text: string }
  | { kind: 'json'; file: number; value: unknown }
  | { kind: 'field'; key: string; value: unknown }
  | { kind: 'line'; at: number; value: unknown }
  | { kind: 'delete'; file: number }
  | { kind: 'add'; name: string; text: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), file: fc.nat(), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('truncate' as const), file: fc.nat(), at: fc.nat() }),
  fc.record({ kind: fc.constant('append' as const), file: fc.nat(), text: fc.string({ minLength: 1 }) }),
  fc.record({ kind: fc.constant('json' as const), file: fc.nat(), value: fc.jsonValue() }),
  fc.record({
    kind: fc.constant('field' as const),
    key: fc.constantFrom(
      'status',
      'shard',
      'target',
      'versions',
      'selection',
      'totals',
      'specSha256',
      'mergedFrom',
      '__proto__',
    ),
    value: fc.jsonValue(),
  }),
  fc.record({ kind: fc.constant('line' as const), at: fc.nat(), value: fc.jsonValue() }),
  fc.record({ kind: fc.constant('delete' as const), file: fc.nat() }),
  fc.record({
    kind: fc.constant('add' as const),
    name: fc.stringMatching(/^[a-z]{1,8}\.(txt|json)$/),
    text: fc.string(),
  }),
);

/** Applies `m` to bundle `d`; says whether any byte of the bundle changed. */
function apply(d: string, m: Mutation): boolean {
  const files = readdirSync(d).sort();
  const pick = (n: number): string => join(d, files[n % files.length]!);
  const before = files.map((f) => readFileSync(join(d, f), 'latin1')).join('\0');
  switch (m.kind) {
    case 'flip': {
      const bytes = readFileSync(pick(m.file));
      if (bytes.length > 0) bytes[m.at % bytes.length]! ^= 1 << m.bit;
      writeFileSync(pick(m.file), bytes);
      break;
    }
    case 'truncate': {
      const bytes = readFileSync(pick(m.file));
      writeFileSync(pick(m.file), bytes.subarray(0, m.at % Math.max(bytes.length, 1)));
      break;
    }
    case 'append':
      appendText(pick(m.file), m.text);
      break;
    case 'json':
      writeFileSync(pick(m.file), JSON.stringify(m.value));
      break;
    case 'field': {
      const summary = JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8'));
      Object.defineProperty(summary, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
      writeFileSync(join(d, 'summary.json'), JSON.stringify(summary));
      break;
    }
    case 'line': {
      const lines = readFileSync(join(d, 'messages.ndjson'), 'utf8').split('\n');
      lines[m.at % lines.length] = JSON.stringify(m.value);
      writeFileSync(join(d, 'messages.ndjson'), lines.join('\n'));
      break;
    }
    case 'delete':
      rmSync(pick(m.file));
      break;
    case 'add':
      writeFileSync(join(d, m.name), m.text);
      break;
  }
  const after = readdirSync(d).sort();
  return (
    after.join('/') !== files.join('/') || after.map((f) => readFileSync(join(d, f), 'latin1')).join('\0') !== before
  );
}
const appendText = (file: string, text: string): void =>
  writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from(text)]));

function oneLineNoCrash(r: { code: number; out: string; err: string }, what: string): void {
  assert.ok([0, 1, 2].includes(r.code), `${what}: exit ${r.code}`);
  assert.doesNotMatch(r.err + r.out, /internal error/, what);
  if (r.code === 2) assert.equal(r.err.trim().split('\n').length, 1, `${what}: ${r.err}`);
}

describe('fuzzing received bundles', () => {
  let one: string;
  let two: string;
  let signed: string;
  before(async () => {
    one = join(dir, 'shard-1');
    two = join(dir, 'shard-2');
    await runSuite({ target: resolveTarget({ live: false }, {}), tags: TAGS, shard: '1/2', reportDir: one }, quiet);
    await runSuite({ target: resolveTarget({ live: false }, {}), tags: TAGS, shard: '2/2', reportDir: two }, quiet);
    signed = join(dir, 'signed');
    cpSync(one, signed, { recursive: true });
    const s = JSON.parse(readFileSync(join(signed, 'summary.json'), 'utf8'));
    await signBundle(signed, bundleSigningKey(privateKey, 'k'), {
      payconform: s.versions.payconform,
      target: s.target,
      status: s.status,
      startedAt: s.startedAt,
      finishedAt: s.finishedAt,
    });
  });

  it('verify: any change to a signed bundle is exit 1 or 2, never 0, never an internal error', async () => {
    assert.equal(
      (await runCli(['bundle', 'verify', signed, '--public-key', pub])).code,
      0,
      'the untouched bundle verifies',
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        const d = join(dir, `verify-${n++}`);
        cpSync(signed, d, { recursive: true });
        const changed = apply(d, m);
        const r = await runCli(['bundle', 'verify', d, '--public-key', pub]);
        oneLineNoCrash(r, JSON.stringify(m));
        if (changed) assert.notEqual(r.code, 0, `${JSON.stringify(m)}: ${r.out}`);
        rmSync(d, { recursive: true });
      }),
      fcParams(150),
    );
  });

  it('merge: a shard changed, with or without a manifest made anew, never ends in an internal error', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(mutation, fc.boolean(), async (m, remanifest) => {
        const d = join(dir, `merge-${n++}`);
        cpSync(two, d, { recursive: true });
        apply(d, m);
        // A manifest made anew passes the integrity check and takes the hostile content to the parser.
        if (remanifest) {
          try {
            writeFileSync(join(d, 'manifest.json'), JSON.stringify(manifestOf(d)));
          } catch {
            // a name the manifest cannot hold: verify deals with it
          }
        }
        const r = await runCli(['bundle', 'merge', one, d, '--out', join(dir, `merged-${n}`)]);
        oneLineNoCrash(r, JSON.stringify(m));
        rmSync(d, { recursive: true });
        rmSync(join(dir, `merged-${n}`), { recursive: true, force: true });
      }),
      fcParams(120),
    );
  });
});
