// The Postman collection's shape (`payconform postman`, docs/postman.md): one request per catalogue
// row, in an order where every id a request reads was kept by an earlier request's test script from
// the operation PREREQUISITES names, no key value anywhere, the committed copy equal to what the
// command prints, and --out that refuses to replace a file without --force.
// (The signing script: postman-script.test.ts; newman against the mock: postman-newman.test.ts.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ENDPOINTS,
  endpointByOperation,
  MEDIA_TYPE,
  PREREQUISITES,
  type Operation,
} from '../../src/catalogue/index.ts';
import { COLLECTION_SCHEMA, postmanCollection, postmanText } from '../../src/interop/postman.ts';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { REQUIRED_FIELDS } from '../../src/schemas/index.ts';
import { runCli } from '../support/cli.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const COMMITTED = join(ROOT, 'docs/payconform.postman_collection.json');
type Json = Record<string, any>;

const items = (collection: Json): Json[] => collection.item as Json[];
const operationOf = (item: Json): Operation => (item.name as string).split(' ')[0] as Operation;
const isSetup = (item: Json): boolean => / \(set-up for [A-Z0-9_]+\)$/.test(item.name as string);
const body = (item: Json): Array<[string, string]> =>
  (item.request.body.urlencoded as Json[]).map((p) => [p.key, p.value]);
/** The collection variables a test script sets: `pm.collectionVariables.set('name', …)`. */
const kept = (item: Json): string[] =>
  [
    ...(item.event as Json[])
      .flatMap((e) => e.script.exec as string[])
      .join('\n')
      .matchAll(/pm\.collectionVariables\.set\('([^']+)'/g),
  ].map((m) => m[1] ?? '');
const used = (item: Json): string[] =>
  body(item)
    .flatMap(([, v]) => [...v.matchAll(/\{\{([^{}$]+)\}\}/g)].map((m) => m[1] ?? ''))
    .filter((v) => !['login'].includes(v));

/**
 * Everything wrong with a collection's order and its ids, judged from the catalogue's
 * PREREQUISITES alone: each id a request reads is kept, earlier, by a request of the operation that
 * creates it (with the fields it asks for), and no two requests that move an order on share one.
 */
function orderProblems(collection: Json): string[] {
  const problems: string[] = [];
  const keeper = new Map<string, { index: number; item: Json }>();
  const movers = new Map<string, string>();
  items(collection).forEach((item, index) => {
    const op = operationOf(item);
    const needs = PREREQUISITES[op];
    const reads = used(item);
    if (needs === null && reads.length > 0)
      problems.push(`${item.name} reads ${reads.join(', ')} but acts on nothing earlier`);
    if (needs !== null) {
      const field = body(item).find(([n]) => n === needs.field);
      const variable = /^\{\{([^{}]+)\}\}$/.exec(field?.[1] ?? '')?.[1];
      const from = variable === undefined ? undefined : keeper.get(variable);
      if (from === undefined) problems.push(`${item.name}: ${needs.field} is not read from an id kept earlier`);
      else {
        if (operationOf(from.item) !== needs.operation)
          problems.push(`${item.name}: ${needs.field} comes from ${from.item.name}, not ${needs.operation}`);
        for (const [name, value] of needs.with ?? [])
          if (!body(from.item).some(([n, v]) => n === name && v === value))
            problems.push(`${item.name}: ${from.item.name} lacks ${name}=${value}`);
        const script = (from.item.event as Json[]).flatMap((e) => e.script.exec as string[]).join('\n');
        if (!script.includes(`answer['${needs.answer}']`))
          problems.push(`${from.item.name} does not keep ${needs.answer}`);
        if (endpointByOperation(op).mockBehaviour === 'move') {
          if (movers.has(variable!))
            problems.push(`${item.name} and ${movers.get(variable!)} both move the order in ${variable}`);
          movers.set(variable!, item.name as string);
        }
      }
    }
    for (const variable of kept(item)) keeper.set(variable, { index, item });
  });
  return problems;
}

describe('the Postman collection', () => {
  const collection = postmanCollection();

  it('is a v2.1 collection with one request per catalogue endpoint, as the spec asks them to be sent', () => {
    assert.equal((collection.info as Json).schema, COLLECTION_SCHEMA);
    const mains = items(collection).filter((i) => !isSetup(i));
    assert.deepEqual(mains.map(operationOf).sort(), ENDPOINTS.map((e) => e.operation).sort());
    assert.equal(mains.length, 28);
    for (const item of items(collection)) {
      const e = endpointByOperation(operationOf(item));
      const { request } = item;
      assert.equal(request.method, 'POST');
      assert.equal(request.url.raw, `{{baseUrl}}${e.path.replace('{endpointId}', '{{endpointId}}')}`);
      assert.ok(
        (request.header as Json[]).some((h) => h.key === 'Accept' && h.value === MEDIA_TYPE && !h.disabled),
        item.name,
      );
      assert.equal(request.body.mode, 'urlencoded');
      const names = body(item).map(([n]) => n);
      for (const field of REQUIRED_FIELDS[e.checkedRequestSchema]!)
        assert.ok(names.includes(field), `${item.name} lacks ${field}`);
      assert.equal(names.includes('control'), e.auth.kind === 'control', `${item.name}: control field`);
      const test = (item.event as Json[]).find((ev) => ev.listen === 'test')!.script.exec.join('\n') as string;
      assert.match(
        test,
        /pm\.test\('[^']+ answers 200 \(spec: [^']+\)', function \(\) \{\n {2}pm\.response\.to\.have\.status\(200\);/,
      );
      if (e.auth.kind === 'oauth-rsa-sha256')
        assert.match(request.description, /payconform sign --url .* --private-key-file merchant\.pem/s);
    }
    assert.deepEqual(collection.auth, { type: 'noauth' });
  });

  it('runs in an order that makes what later requests need, each move on an order of its own', () => {
    assert.deepEqual(orderProblems(collection), []);
    const names = items(collection).map((i) => i.name as string);
    const at = (name: string): number => names.indexOf(name);
    assert.ok(
      at('SALE') < at('STATUS') &&
        at('SALE') < at('RETURN') &&
        at('PREAUTH') < at('CAPTURE') &&
        at('CARDREF') < at('REBILL') &&
        at('CREATE_RP_V4') < at('PROCESS_RP_V4'),
    );
    assert.ok(at('VOID (set-up for VOID)') === -1 && at('SALE (set-up for VOID)') === at('VOID') - 1);
  });

  it('notices a collection out of order, or two moves of one order', () => {
    const swapped = structuredClone(collection);
    const list = items(swapped);
    const [sale, status] = [list.findIndex((i) => i.name === 'SALE'), list.findIndex((i) => i.name === 'STATUS')];
    const [saleItem, statusItem] = [list[sale], list[status]];
    assert.ok(saleItem && statusItem);
    [list[sale], list[status]] = [statusItem, saleItem];
    assert.ok(
      orderProblems(swapped).some((p) => p.startsWith('STATUS: orderid is not read from an id kept earlier')),
      orderProblems(swapped).join('\n'),
    );
    const shared = structuredClone(collection);
    const voidItem = items(shared).find((i) => i.name === 'VOID')!;
    (voidItem.request.body.urlencoded as Json[]).find((p) => p.key === 'orderid')!.value = '{{orderid_SALE}}';
    assert.ok(
      orderProblems(shared).some((p) => p.includes('both move the order in orderid_SALE')),
      orderProblems(shared).join('\n'),
    );
  });

  it('holds no key: the controlKey variable is empty and no known key value appears anywhere', () => {
    const text = postmanText();
    const variables = new Map((collection.variable as Json[]).map((v) => [v.key, v.value]));
    for (const name of ['baseUrl', 'login', 'endpointId', 'controlKey']) assert.ok(variables.has(name), name);
    assert.equal(variables.get('controlKey'), '');
    assert.equal(variables.get('login'), '');
    const keys = [testMerchant().merchantControlKey, 'TEST-ONLY-control-key-0f6b2c', 'PRIVATE KEY'];
    const leaks = (json: string): string[] => keys.filter((key) => json.includes(key));
    assert.deepEqual(leaks(text), []);
    // The check can fail: the test merchant's key as the controlKey variable is noticed.
    const leaky = {
      ...collection,
      variable: (collection.variable as Json[]).map((v) =>
        v.key === 'controlKey' ? { ...v, value: testMerchant().merchantControlKey } : v,
      ),
    };
    assert.deepEqual(leaks(JSON.stringify(leaky)), [testMerchant().merchantControlKey]);
  });

  it('is committed as docs/payconform.postman_collection.json, equal to what `payconform postman` prints', async () => {
    assert.equal(
      readFileSync(COMMITTED, 'utf8'),
      postmanText(),
      'docs/payconform.postman_collection.json is stale: npm run docs:postman',
    );
    const printed = await runCli(['postman']);
    assert.equal(printed.code, 0);
    assert.equal(printed.out, `${postmanText()}\n`, 'runCli adds a newline to each line it is given');
  });

  it(
    'prints the same from the built command (bin/payconform.js, after npm run build)',
    { skip: !existsSync(join(ROOT, 'dist/src/cli/main.js')) && 'dist/ not built' },
    () => {
      const run = spawnSync(process.execPath, [join(ROOT, 'bin/payconform.js'), 'postman'], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, readFileSync(COMMITTED, 'utf8'));
    },
  );

  it('--out writes the file, refuses to replace it without --force (exit 2, one line), replaces it with --force', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payconform-postman-out-'));
    try {
      const out = join(dir, 'c.json');
      const first = await runCli(['postman', '--out', out]);
      assert.equal(first.code, 0, first.err);
      assert.equal(first.err, `wrote ${out}\n`);
      assert.equal(readFileSync(out, 'utf8'), postmanText());
      writeFileSync(out, 'mine');
      const again = await runCli(['postman', '--out', out]);
      assert.equal(again.code, 2);
      assert.equal(again.err, `payconform postman: --out: ${out} exists; choose another --out or pass --force\n`);
      assert.equal(readFileSync(out, 'utf8'), 'mine');
      const forced = await runCli(['postman', '--out', out, '--force']);
      assert.equal(forced.code, 0, forced.err);
      assert.equal(readFileSync(out, 'utf8'), postmanText());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
