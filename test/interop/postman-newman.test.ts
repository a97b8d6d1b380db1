// The Postman collection run as a user runs it: `newman run FILE --env-var …` (newman 6.2.2, the
// CLI in a child process) against the embedded mock, started in-process on a loopback port behind a
// small recording proxy that keeps the raw bytes of every request newman sends. The mock judges
// every control and signature with the reference rules; the proxy shows what postman-runtime put
// on the wire (the body encoding the script signs for).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpointByOperation, ENDPOINTS, OP, type Operation } from '../../src/catalogue/index.ts';
import { postmanCollection, runPlan } from '../../src/interop/postman.ts';
import { testMerchant, TEST_MERCHANT_PRIVATE_KEY_FILE } from '../../src/gateway/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { decodeForm, signRequest, type Pair } from '../../src/signing/index.ts';
import { CONFORMING, startVariant, type ConformingVariant } from '../support/gateway-variants.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const NEWMAN = join(ROOT, 'node_modules/.bin/newman');
const MERCHANT = testMerchant();
const ENDPOINT_ID = MERCHANT.endpointIds[0] ?? '';
type Json = Record<string, any>;

interface Seen {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A proxy in front of the mock that records each request's raw body and passes it on untouched (the
 * Host header too: the mock takes the signed URL's host and port from it).
 */
async function recordingProxy(target: string): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const to = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ path: req.url ?? '', headers: req.headers, body: body.toString('latin1') });
      const forward = httpRequest(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

interface NewmanRun {
  code: number | null;
  stderr: string;
  report: Json;
}

/** `newman run FILE --env-var …` with the JSON reporter, bounded to 60 s. */
function newman(file: string, vars: Record<string, string>, dir: string): Promise<NewmanRun> {
  const reportFile = join(dir, `report-${Date.now()}-${Math.random().toString(16).slice(2)}.json`);
  const args = [
    'run',
    file,
    ...Object.entries(vars).flatMap(([k, v]) => ['--env-var', `${k}=${v}`]),
    '--reporters',
    'json',
    '--reporter-json-export',
    reportFile,
    '--timeout',
    '50000',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(NEWMAN, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({ code, stderr, report: JSON.parse(readFileSync(reportFile, 'utf8')) as Json });
      } catch (err) {
        reject(new Error(`newman left no report (exit ${code}): ${stderr.slice(0, 500)}`, { cause: err }));
      }
    });
  });
}

const isRsa = (op: Operation): boolean => endpointByOperation(op).auth.kind === 'oauth-rsa-sha256';
const pathOf = (op: Operation): string => endpointByOperation(op).path.replace('{endpointId}', ENDPOINT_ID);

describe('the Postman collection run by newman against the mock', { timeout: 180_000 }, () => {
  let mock: RunningMock;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let dir: string;
  let file: string;
  const good = (): Record<string, string> => ({
    baseUrl: proxy.url,
    login: MERCHANT.login,
    endpointId: ENDPOINT_ID,
    controlKey: MERCHANT.merchantControlKey,
  });

  before(async () => {
    mock = await startMock({ port: 0, host: '127.0.0.1' });
    proxy = await recordingProxy(mock.url);
    dir = mkdtempSync(join(tmpdir(), 'payconform-postman-'));
    file = join(dir, 'payconform.postman_collection.json');
    writeFileSync(file, JSON.stringify(postmanCollection(), null, 2));
  });

  after(async () => {
    await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 200 to every control, HMAC and unsigned request, passes every test and skips the RSA ones', async () => {
    proxy.seen.length = 0;
    const { code, stderr, report } = await newman(file, good(), dir);
    const run = report.run as Json;
    const executions = run.executions as Json[];
    const failures = (run.failures as Json[]).map((f) => `${f.source?.name}: ${f.error?.message}`);
    assert.deepEqual(failures, []);
    assert.equal(code, 0, stderr);

    const plan = runPlan();
    const sent = plan.filter((r) => !isRsa(r.operation));
    assert.deepEqual(
      executions.map((e) => e.item.name),
      sent.map((r) => (r.setupFor ? `${r.operation} (set-up for ${r.setupFor})` : r.operation)),
    );
    for (const e of executions) {
      assert.equal(e.response?.code, 200, `${e.item.name}: ${e.response?.code}`);
      assert.ok(
        (e.assertions as Json[]).length >= 1 && (e.assertions as Json[]).every((a) => a.error === undefined),
        e.item.name,
      );
    }
    // Every catalogue operation but the RSA ones reached the gateway; no RSA request left newman.
    const reached = new Set(proxy.seen.map((s) => s.path));
    for (const e of ENDPOINTS)
      assert.equal(
        reached.has(pathOf(e.operation)),
        !isRsa(e.operation),
        `${e.operation} ${isRsa(e.operation) ? 'was sent' : 'was not sent'}`,
      );
    assert.equal(proxy.seen.length, sent.length);
    assert.equal(ENDPOINTS.filter((e) => isRsa(e.operation)).length, 8);
    assert.equal((run.stats as Json).requests.total, sent.length);
  });

  it('puts on the wire exactly what it signed: each value percent-encoded once, a space as %20, + as %2B', () => {
    const sale = proxy.seen.find((s) => s.path === pathOf(OP.SALE))!;
    assert.match(sale.body, /(^|&)phone=%2B49%2030%201234567(&|$)/);
    assert.match(sale.body, /(^|&)card_printed_name=JANE%20DOE(&|$)/);
    for (const s of proxy.seen) {
      const pairs = decodeForm(s.body);
      assert.ok(
        pairs.every(([, v]) => !v.includes('{{') && !/%[0-9A-F]{2}/i.test(v)),
        `${s.path}: ${s.body.slice(0, 200)}`,
      );
      assert.ok(!s.body.includes(MERCHANT.merchantControlKey), `${s.path} carries the control key`);
    }
    const payout = proxy.seen.find((s) => s.path === pathOf(OP.PAYOUT))!;
    assert.match(
      String(payout.headers.authorization),
      /^OAuth oauth_consumer_key="payconform-test-merchant", oauth_nonce="[0-9a-f]{32}", oauth_signature="[^"]+", oauth_signature_method="HMAC-SHA1", oauth_timestamp="[0-9]+", oauth_version="1.0"$/,
    );
    assert.ok(!/(^|&)oauth_/.test(payout.body), 'oauth_* stay out of the body');
  });

  it('fails with a wrong controlKey: the mock refuses every signed request', async () => {
    const { code, report } = await newman(file, { ...good(), controlKey: 'not-the-key' }, dir);
    assert.equal(code, 1);
    const executions = (report.run as Json).executions as Json[];
    const byName = new Map(executions.map((e) => [e.item.name as string, e]));
    for (const e of ENDPOINTS.filter((x) => x.auth.kind === 'control' || x.auth.kind === 'oauth-hmac-sha1')) {
      const answer = byName.get(e.operation)!.response;
      // A wrong control is a validation error (400); a failed HMAC check is 403, as the family's gateways answer it (A-21).
      assert.equal(answer.code, e.auth.kind === 'control' ? 400 : 403, e.operation);
      const body = JSON.parse(Buffer.from(answer.stream.data).toString('utf8')) as Json;
      assert.match(body['error-code'], /CONTROL|SIGNATURE/, `${e.operation}: ${body['error-code']}`);
    }
    // Not the request's fault: the unsigned form still passes.
    assert.equal(byName.get(OP.PAYMENTFORM)!.response.code, 200);
  });

  it('sends an RSA-SHA256 request whose Authorization header was pasted in, with the body that was signed', async () => {
    const collection = postmanCollection();
    const item = (collection.item as Json[]).find((i) => i.name === OP.PAYOUT_V4)!;
    const params = (item.request.body.urlencoded as Json[]).map((p): Pair => [p.key, p.value]);
    assert.ok(
      params.every(([, v]) => !v.includes('{{')),
      'an RSA request of its own has fixed values a person can sign',
    );
    const signed = signRequest(
      { url: `${proxy.url}${pathOf(OP.PAYOUT_V4)}`, params },
      { login: MERCHANT.login, privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8') },
    );
    assert.equal(signed.scheme, 'oauth-rsa-sha256');
    const header = (item.request.header as Json[]).find((h) => h.key === 'Authorization')!;
    header.value = signed.scheme === 'oauth-rsa-sha256' ? signed.oauth.authorization : '';
    delete header.disabled;
    const one = join(dir, 'rsa.postman_collection.json');
    writeFileSync(one, JSON.stringify({ ...collection, item: [item] }));
    proxy.seen.length = 0;
    const { code, report } = await newman(one, good(), dir);
    assert.equal(code, 0, JSON.stringify((report.run as Json).failures).slice(0, 500));
    assert.equal(((report.run as Json).executions as Json[])[0]!.response.code, 200);
    assert.equal(proxy.seen.length, 1);
  });
  // A gateway nobody here wrote differs from the mock where the spec is silent: the collection must
  // still pass there, and fail where a gateway breaks what the spec states (a valid request's 200).
  it('passes against a gateway that differs where the spec allows (numeric ids, capital statuses, extra fields, charset, key order…)', async () => {
    // Renamed answer fields are the one difference the collection cannot read by itself (A-17, docs/postman.md).
    const variants = (Object.keys(CONFORMING) as ConformingVariant[]).filter((v) => v !== 'renamed-answer-fields');
    const gateway = await startVariant(proxy.url, variants);
    try {
      const { code, report } = await newman(file, { ...good(), baseUrl: gateway.url }, dir);
      assert.deepEqual(
        ((report.run as Json).failures as Json[]).map((f) => `${f.source?.name}: ${f.error?.message}`),
        [],
      );
      assert.equal(code, 0);
    } finally {
      await gateway.close();
    }
  });

  it('fails against a gateway that answers valid requests 500, and names the A-17 test where the answer fields are renamed', async () => {
    const broken = await startVariant(proxy.url, ['all-500']);
    const renamed = await startVariant(proxy.url, ['renamed-answer-fields']);
    try {
      const down = await newman(file, { ...good(), baseUrl: broken.url }, dir);
      assert.equal(down.code, 1);
      const failed = ((down.report.run as Json).failures as Json[]).map((f) => String(f.error?.test));
      assert.ok(
        failed.some((t) => /^SALE answers 200 \(spec: /.test(t)),
        failed.join('\n'),
      );
      const other = await newman(file, { ...good(), baseUrl: renamed.url }, dir);
      assert.equal(other.code, 1);
      const names = ((other.report.run as Json).failures as Json[]).map((f) => String(f.error?.test));
      assert.ok(
        names.some((t) => /^SALE gives paynet-order-id \(assumption A-17/.test(t)),
        names.join('\n'),
      );
    } finally {
      await broken.close();
      await renamed.close();
    }
  });
});
