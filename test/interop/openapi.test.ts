// The OpenAPI document (`payconform openapi`, docs/openapi.md). Its expectations come from outside the
// generator: the OpenAPI 3.1 meta-schema (@seriousme/openapi-schema-validator), the spec's own endpoint
// table (docs/spec/api-spec.md, parsed here), REQUIRED_FIELDS, docs/assumptions.md, and Prism serving it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ENDPOINTS, endpointByOperation, OP } from '../../src/catalogue/index.ts';
import { buildRequest } from '../../src/client/client.ts';
import { openApiDocument, openApiText } from '../../src/interop/openapi.ts';
import { testMerchant, TEST_MERCHANT_PRIVATE_KEY_FILE } from '../../src/gateway/merchants.ts';
import { addFormats } from '../../src/schemas/formats.ts';
import { REQUIRED_FIELDS, sampleRequest } from '../../src/schemas/index.ts';
import { runCli } from '../support/cli.ts';
import { freePort } from '../support/free-port.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
type Json = Record<string, any>;

const doc = (): Json => openApiDocument();

/** `#/components/…/Name` → the object it names. */
function resolve(document: Json, value: Json): Json {
  if (typeof value.$ref !== 'string') return value;
  return value.$ref
    .slice(2)
    .split('/')
    .reduce((at: Json, key) => at?.[key], document);
}

// ---------------------------------------------------------------------------------------------
// The spec's endpoint table and its "named only in signing examples" list, read from the spec itself.

interface SpecRow {
  path: string;
  operation: string;
  request: string;
  answer: string;
  auth: string;
}

const SPEC = readFileSync(join(ROOT, 'docs/spec/api-spec.md'), 'utf8');
const SPEC_ROWS: SpecRow[] = SPEC.split('\n')
  .filter((line) => line.startsWith('| /api/'))
  .map((line) => {
    const [path = '', operation = '', request = '', answer = '', auth = ''] = line
      .split('|')
      .slice(1, 6)
      .map((cell) => cell.trim());
    return { path: path, operation: operation, request: request, answer: answer, auth: auth };
  });
const SIGNING_EXAMPLE_PATHS = [...SPEC.matchAll(/^- `(\/api\/[^`]+\/\{endpointId\})`/gm)].map((m) => m[1]);

/** The formula of a spec table cell, `control = SHA-1(a + b + merchant_control_key), amount in cents`. */
// "none stated" in the spec, a formula on the family's public page, read off the page by hand.
const PUBLIC_FORMULAS: Record<string, string> = {
  '/api/v2/get-card-info/{endpointId}': 'control = SHA-1(login + cardrefid + merchant_control_key)',
};

function specFormula(cell: string): { names: string[]; cents: string[] } | undefined {
  const m = /^control = SHA-1\(([^)]*)\)(?:, (.*) in cents)?$/.exec(cell);
  if (!m) return undefined;
  return { names: m[1]!.split(' + '), cents: m[2] ? m[2].split(', ') : [] };
}

/**
 * Everything wrong between a document and the spec's table (plus REQUIRED_FIELDS for the field
 * lists, which are ours): computed without the generator, so a mutated copy shows it can fail.
 */
function driftProblems(document: Json): string[] {
  const problems: string[] = [];
  const paths = document.paths as Json;
  const operationIds = new Set<string>();
  const rowPaths = new Set(ENDPOINTS.map((e) => e.path));
  // Every spec row, and every endpoint named in the signing examples, is in the catalogue and the document.
  const specPaths = [...SPEC_ROWS.map((r) => r.path), ...SIGNING_EXAMPLE_PATHS];
  for (const path of specPaths) if (!rowPaths.has(path!)) problems.push(`${path}: in the spec, not in the catalogue`);
  for (const endpoint of ENDPOINTS) {
    const post = paths[endpoint.path]?.post as Json | undefined;
    if (!post) {
      problems.push(`${endpoint.path}: no POST`);
      continue;
    }
    if (post.operationId !== endpoint.operation)
      problems.push(`${endpoint.path}: operationId ${post.operationId}, not ${endpoint.operation}`);
    const spec = SPEC_ROWS.find((r) => r.path === endpoint.path);
    const body = resolve(document, post.requestBody?.content?.['application/x-www-form-urlencoded']?.schema ?? {});
    const control = post['x-payconform-control'] as Json | undefined;
    if (post.requestBody?.required !== true) problems.push(`${endpoint.path}: the body is not required`);
    if (spec) {
      if (spec.operation !== endpoint.operation) problems.push(`${endpoint.path}: the spec names ${spec.operation}`);
      const requestRef = post.requestBody?.content?.['application/x-www-form-urlencoded']?.schema?.$ref as
        string | undefined;
      if (spec.request !== 'not shown' && requestRef !== `#/components/schemas/${spec.request}`)
        problems.push(`${endpoint.path}: request ${requestRef}, the spec says ${spec.request}`);
      const answerRef = post.responses?.['200']?.content?.['application/vnd.pay+json']?.schema?.$ref as
        string | undefined;
      if (spec.answer !== 'not shown' && answerRef !== `#/components/schemas/${spec.answer}`)
        problems.push(`${endpoint.path}: 200 ${answerRef}, the spec says ${spec.answer}`);
      if (spec.answer === 'not shown' && answerRef !== undefined)
        problems.push(`${endpoint.path}: 200 names ${answerRef}, the spec shows none`);
      const auth = PUBLIC_FORMULAS[endpoint.path] ?? spec.auth;
      const formula = specFormula(auth);
      if (formula) {
        if (control?.formula === undefined || `control = ${control.formula}` !== auth)
          problems.push(`${endpoint.path}: formula "${control?.formula}", the spec says "${auth}"`);
        const expected = formula.names.slice(0, -1).map((name) => ({
          name,
          from: name === 'endpointId' ? 'url' : name === 'login' ? 'credentials' : 'params',
          cents: formula.cents.includes(name),
        }));
        const given = ((control?.fields ?? []) as Json[]).map(({ name, from, cents }) => ({ name, from, cents }));
        if (JSON.stringify(given) !== JSON.stringify(expected))
          problems.push(
            `${endpoint.path}: control fields ${JSON.stringify(given)}, the spec says ${JSON.stringify(expected)}`,
          );
        if (
          formula.names.at(-1) !== 'merchant_control_key' ||
          control?.key?.name !== 'merchant_control_key' ||
          control?.key?.position !== 'last'
        )
          problems.push(`${endpoint.path}: the key is not last`);
        if ((post.security as unknown[]).length !== 0)
          problems.push(`${endpoint.path}: a control operation declares an HTTP security scheme`);
        if ((PUBLIC_FORMULAS[endpoint.path] !== undefined) !== /^https:\/\/doc/.test(String(control?.statedBy ?? '')))
          problems.push(
            `${endpoint.path}: statedBy ${control?.statedBy}, but the spec ${auth === spec.auth ? 'states' : 'does not state'} the formula`,
          );
      } else if (control) problems.push(`${endpoint.path}: a control extension, but the spec says "${auth}"`);
      const oauth = /^OAuth 1\.0a, (HMAC-SHA1|RSA-SHA256)$/.exec(auth)?.[1];
      const scheme = Object.keys((post.security as Json[])[0] ?? {})[0];
      if (
        oauth &&
        document.components.securitySchemes[scheme ?? '']?.['x-payconform-signature']?.signatureMethod !== oauth
      )
        problems.push(`${endpoint.path}: security ${scheme}, the spec says ${auth}`);
      if (auth === 'none stated' && (post.security.length !== 0 || control))
        problems.push(`${endpoint.path}: signed, but the spec states no authentication`);
      const wantsControl = formula !== undefined;
      if ((body.required ?? []).includes('control') !== wantsControl)
        problems.push(`${endpoint.path}: control ${wantsControl ? 'not ' : ''}required`);
    } else if (!SIGNING_EXAMPLE_PATHS.includes(endpoint.path))
      problems.push(`${endpoint.path}: neither in the spec's table nor in its signing examples`);
    const fields = ((body.required ?? []) as string[]).filter((f) => f !== 'control');
    if (JSON.stringify(fields) !== JSON.stringify(REQUIRED_FIELDS[endpoint.checkedRequestSchema]))
      problems.push(
        `${endpoint.path}: required ${fields.join(',')}, REQUIRED_FIELDS says ${REQUIRED_FIELDS[endpoint.checkedRequestSchema]?.join(',')}`,
      );
    for (const [name, property] of Object.entries((body.properties ?? {}) as Json)) {
      if (resolve(document, property).type !== 'string') problems.push(`${endpoint.path}: ${name} is not a string`);
    }
  }
  for (const [path, item] of Object.entries(paths)) {
    const methods = Object.keys(item as Json);
    if (methods.join() !== 'post') problems.push(`${path}: methods ${methods.join()}`);
    const id = (item as Json).post?.operationId as string;
    if (operationIds.has(id)) problems.push(`${path}: operationId ${id} twice`);
    operationIds.add(id);
    if (rowPaths.has(path)) continue;
    // The endpoint-group form, …/group/{groupId}, exactly on the operations whose public page lists one.
    const row = ENDPOINTS.find((e) => e.path.replace('{endpointId}', 'group/{groupId}') === path);
    if (!row || !PUBLIC_GROUP_URLS.includes(row.path)) problems.push(`${path}: no catalogue row has this path`);
  }
  for (const path of PUBLIC_GROUP_URLS) {
    if (paths[path.replace('{endpointId}', 'group/{groupId}')] === undefined)
      problems.push(`${path}: its public page lists a group URL, the document does not`);
  }
  return problems;
}

/**
 * The paths whose public page lists `…/group/ENDPOINTGROUPID` (read off doc.payneteasy.com,
 * doc2.payneteasy.com and doc.payneteasy.eu, "API URLs"; docs/assumptions.md A-3), written out here
 * apart from the catalogue so the drift check has its own source.
 */
const PUBLIC_GROUP_URLS = [
  'sale',
  'sale-form',
  'preauth',
  'preauth-form',
  'account-verification',
  'account-verification-form',
  'status',
  'capture',
  'return',
  'void',
  'create-card-ref',
  'get-card-info',
  'make-rebill',
  'payout-form',
]
  .map((op) => `/api/v2/${op}/{endpointId}`)
  .concat(
    ['create-card-ref', 'payout', 'payout-pay', 'transfer', 'transfer-by-ref'].map(
      (op) => `/api/v4/${op}/{endpointId}`,
    ),
    ['upload-cres-result', 'upload-method-url-result', 'upload-pares-result'].map(
      (op) => `/api/3ds/v1/${op}/{endpointId}`,
    ),
  );

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, and the validator refuses a broken copy', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc());
    assert.deepEqual(result.errors, undefined);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
    // A response without its description, and a path parameter that is not required: both break OpenAPI 3.1.
    const broken = doc();
    delete broken.components.responses.ValidationError.description;
    assert.equal((await new Validator().validate(broken)).valid, false);
    const optionalPathParameter = doc();
    optionalPathParameter.components.parameters.EndpointId.required = false;
    assert.equal((await new Validator().validate(optionalPathParameter)).valid, false);
  });

  it('holds every endpoint of the spec, as its table says it, and nothing else', () => {
    assert.equal(SPEC_ROWS.length, 25, 'the spec table parsed');
    assert.equal(SIGNING_EXAMPLE_PATHS.length, 4, 'the signing-example list parsed');
    assert.deepEqual(driftProblems(doc()), []);
    assert.equal(Object.keys(doc().paths).filter((p) => !p.includes('/group/')).length, 28);
  });

  it('the drift check fails on a missing path, a swapped formula field, an extra path and a lost required field', () => {
    const missing = doc();
    delete missing.paths['/api/v2/capture/{endpointId}'];
    assert.deepEqual(driftProblems(missing), ['/api/v2/capture/{endpointId}: no POST']);

    const swapped = doc();
    const fields = swapped.paths['/api/v2/sale/{endpointId}'].post['x-payconform-control'].fields;
    [fields[1], fields[2]] = [fields[2], fields[1]];
    assert.match(driftProblems(swapped).join('\n'), /\/api\/v2\/sale\/\{endpointId\}: control fields/);

    const formula = doc();
    formula.paths['/api/v2/status/{endpointId}'].post['x-payconform-control'].formula =
      'SHA-1(login + orderid + client_orderid + merchant_control_key)';
    assert.match(driftProblems(formula).join('\n'), /status.*formula/);

    const extra = doc();
    extra.paths['/api/v2/refund/{endpointId}'] = extra.paths['/api/v2/return/{endpointId}'];
    assert.match(driftProblems(extra).join('\n'), /refund.*no catalogue row/);

    // create-recurring-payment: its public page lists …/ENDPOINTID only.
    const groupOnRecurring = doc();
    groupOnRecurring.paths['/api/v4/create-recurring-payment/group/{groupId}'] = {
      post: {
        ...groupOnRecurring.paths['/api/v4/create-recurring-payment/{endpointId}'].post,
        operationId: 'CREATE_RP_V4_BY_GROUP',
      },
    };
    assert.match(driftProblems(groupOnRecurring).join('\n'), /create-recurring-payment\/group.*no catalogue row/);

    const noGroupOnStatus = doc();
    delete noGroupOnStatus.paths['/api/v2/status/group/{groupId}'];
    assert.deepEqual(driftProblems(noGroupOnStatus), [
      '/api/v2/status/{endpointId}: its public page lists a group URL, the document does not',
    ]);

    const lostField = doc();
    lostField.components.schemas.CaptureRequest.required = lostField.components.schemas.CaptureRequest.required.filter(
      (f: string) => f !== 'currency',
    );
    assert.match(driftProblems(lostField).join('\n'), /capture.*REQUIRED_FIELDS/);

    const unsignedSale = doc();
    unsignedSale.components.schemas.SaleRequest.required = unsignedSale.components.schemas.SaleRequest.required.filter(
      (f: string) => f !== 'control',
    );
    assert.match(driftProblems(unsignedSale).join('\n'), /sale.*control not required/);
  });

  it("every operation carries the required Accept header, the endpointId (int64) and the spec's 400/500 answers", () => {
    const d = doc();
    for (const [path, item] of Object.entries(d.paths as Json)) {
      const post = (item as Json).post;
      const params = (post.parameters as Json[]).map((p) => resolve(d, p));
      const accept = params.find((p) => p.in === 'header' && p.name === 'Accept');
      assert.equal(accept?.required, true, path);
      assert.equal(accept?.schema.const, 'application/vnd.pay+json', path);
      const id = params.find((p) => p.in === 'path');
      assert.equal(path.endsWith(`{${id?.name}}`), true, path);
      assert.deepEqual([id?.required, id?.schema.type, id?.schema.format], [true, 'integer', 'int64'], path);
      // An OAuth operation also lists the 403 of a failed OAuth check (A-21, the family's public docs); no other does.
      const oauth = (post['x-payconform-auth'] as string).startsWith('oauth-');
      assert.deepEqual(
        Object.keys(post.responses).sort(),
        oauth ? ['200', '400', '403', '500'] : ['200', '400', '500'],
        path,
      );
      if (oauth) assert.deepEqual(resolve(d, post.responses['403'])['x-payconform-assumptions'], ['A-21'], path);
      assert.equal(
        resolve(d, post.responses['400']).content['application/vnd.pay+json'].schema.$ref,
        '#/components/schemas/ValidationErrorResponse',
      );
      assert.equal(
        resolve(d, post.responses['500']).content['application/vnd.pay+json'].schema.$ref,
        '#/components/schemas/ServerErrorResponse',
      );
      assert.ok(post.summary && post.tags?.length === 1, path);
    }
    // The group-accepting operations say so where their id is described.
    for (const e of ENDPOINTS) {
      const id = resolve(d, d.paths[e.path].post.parameters[0]);
      assert.equal(/endpoint group/.test(id.description), e.endpointGroup.accepted, e.operation);
    }
    assert.equal(d.info.version, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    assert.match(d.info.description, /version label `dev`/);
  });

  it("marks assumptions by ids that docs/assumptions.md defines, and the spec's own facts not", () => {
    const d = doc();
    const defined = new Set(
      [...readFileSync(join(ROOT, 'docs/assumptions.md'), 'utf8').matchAll(/^\| (A-\d+) \|/gm)].map((m) => m[1]),
    );
    const used = [...JSON.stringify(d).matchAll(/"x-payconform-assumptions":\[([^\]]*)\]/g)].flatMap(
      (m) => JSON.parse(`[${m[1]}]`) as string[],
    );
    assert.ok(used.length > 50);
    for (const id of new Set(used)) assert.ok(defined.has(id), `${id} is not in docs/assumptions.md`);
    // Request schemas are ours (A-25), answer fields too (A-17, A-18); the signing-example rows' names (A-4); transfer-by-ref's scheme (A-5).
    for (const e of ENDPOINTS)
      assert.ok(d.components.schemas[e.checkedRequestSchema]['x-payconform-assumptions'].includes('A-25'), e.operation);
    assert.deepEqual(d.components.schemas.StatusResponse['x-payconform-assumptions'], ['A-17', 'A-18']);
    for (const path of SIGNING_EXAMPLE_PATHS.filter((p) => !SPEC_ROWS.some((r) => r.path === p)))
      assert.ok(d.paths[path!].post['x-payconform-assumptions'].includes('A-4'), path);
    assert.ok(d.paths['/api/v4/transfer-by-ref/{endpointId}'].post['x-payconform-assumptions'].includes('A-5'));
    // The Accept header and the error answers are the spec's: no mark.
    assert.equal(d.components.parameters.Accept['x-payconform-assumptions'], undefined);
    assert.equal(d.components.responses.ValidationError['x-payconform-assumptions'], undefined);
  });

  it('describes OAuth 1.0a: the security schemes per method, the HMAC key, the base string', () => {
    const d = doc();
    for (const e of ENDPOINTS) {
      const scheme = Object.keys(d.paths[e.path].post.security[0] ?? {})[0];
      const method = scheme ? d.components.securitySchemes[scheme] : undefined;
      const expected = e.path.startsWith('/api/v4/')
        ? 'RSA-SHA256'
        : ['/api/v2/payout/{endpointId}', '/api/v2/pan-eligibility/send/{endpointId}'].includes(e.path)
          ? 'HMAC-SHA1'
          : undefined;
      assert.equal(method?.['x-payconform-signature'].signatureMethod, expected, e.operation);
      if (method) assert.deepEqual([method.type, method.scheme], ['http', 'OAuth']);
    }
    assert.equal(d.components.securitySchemes.OAuth1HmacSha1['x-payconform-signature'].key, '<merchant_control_key>&');
    assert.equal(d['x-payconform-oauth1'].parameters.oauth_consumer_key, 'the merchant login');
    assert.match(d['x-payconform-oauth1'].baseString[0], /^POST&<url>&<params>/);
  });

  it('its schemas compile under ajv (strict, JSON Schema 2020-12) and accept the requests the suite sends', () => {
    const d = doc();
    const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
    ajv.addKeyword('x-payconform-assumptions');
    ajv.addKeyword('x-payconform-source'); // each request field's page (src/catalogue/fields/requests.ts)
    const defs = JSON.parse(JSON.stringify(d.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'));
    for (const name of Object.keys(defs)) ajv.compile({ $defs: defs, $ref: `#/$defs/${name}` });
    const sale = ajv.compile({ $defs: defs, $ref: '#/$defs/SaleRequest' });
    const body = Object.fromEntries(sampleRequest(endpointByOperation(OP.SALE)));
    assert.equal(sale(body), false, 'a sale without control is refused');
    assert.equal(sale({ ...body, control: 'a'.repeat(40) }), true);
    assert.equal(sale({ ...body, control: 'A'.repeat(40) }), false, 'uppercase hex is no control (A-1)');
  });
});

describe('payconform openapi', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'payconform-openapi-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints what docs/openapi.json holds (regenerate: npm run docs:openapi)', async () => {
    const printed = await runCli(['openapi']);
    assert.equal(printed.code, 0);
    assert.equal(printed.err, '');
    const committed = readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8');
    // runCli ends every write with a newline; the real stdout adds one only where the text has none.
    assert.ok(printed.out.endsWith('}\n\n'));
    assert.ok(
      printed.out.slice(0, -1) === committed,
      'docs/openapi.json is not what `payconform openapi` prints: run `npm run docs:openapi` (payconform openapi --out docs/openapi.json --force) and commit it',
    );
    assert.equal(JSON.parse(printed.out).openapi, '3.1.0');
  });

  it('--out writes the file; an existing one is refused without --force (one line, exit 2), replaced with it; a folder never', async () => {
    const file = join(dir, 'api.json');
    const first = await runCli(['openapi', '--out', file]);
    assert.deepEqual([first.code, first.out, first.err], [0, '', `wrote ${file}\n`]);
    assert.equal(readFileSync(file, 'utf8'), openApiText());
    writeFileSync(file, 'old');
    const again = await runCli(['openapi', '--out', file]);
    assert.equal(again.code, 2);
    assert.equal(again.err, `payconform openapi: --out: ${file} exists; choose another --out or pass --force\n`);
    assert.equal(readFileSync(file, 'utf8'), 'old');
    const forced = await runCli(['openapi', '--out', file, '--force']);
    assert.equal(forced.code, 0);
    assert.equal(readFileSync(file, 'utf8'), openApiText());
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const toFolder = await runCli(['openapi', '--out', folder, '--force']);
    assert.equal(toFolder.code, 2);
    assert.match(toFolder.err, /^payconform openapi: --out: .* is a folder; give a file name\n$/);
  });
});

// ---------------------------------------------------------------------------------------------
// Prism serving the generated document: it routes, checks requests against the schemas, answers.

/** Resolves once the child prints `line`; rejects when it exits first or after `ms`. */
function waitForLine(child: ChildProcess, line: RegExp, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`prism did not start in ${ms} ms:\n${seen.slice(-2000)}`)), ms);
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (line.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited (${code}) before listening:\n${seen.slice(-2000)}`));
    });
  });
}

describe('Prism mocks the generated document', { timeout: 60_000 }, () => {
  let dir: string;
  let prism: ChildProcess | undefined;
  let base: string;
  const merchant = testMerchant();
  const credentials = {
    login: merchant.login,
    controlKey: merchant.merchantControlKey,
    privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payconform-prism-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, openApiText());
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Its own process group, so `after` ends prism and anything it started, and nothing else.
    prism = spawn(join(ROOT, 'node_modules/.bin/prism'), ['mock', file, '-h', '127.0.0.1', '-p', String(port)], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await waitForLine(prism, /Prism is listening on/, 30_000);
  });

  after(() => {
    if (prism?.pid !== undefined && prism.exitCode === null) {
      try {
        process.kill(-prism.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** A request the suite would send: the sample body, signed as the catalogue says (control or OAuth). */
  function signed(operation: string, drop?: string): { url: string; init: RequestInit } {
    const endpoint = endpointByOperation(operation);
    const request = buildRequest(endpoint, { baseUrl: base, credentials, endpointId: '1001' }, sampleRequest(endpoint));
    const body =
      drop === undefined
        ? request.body
        : request.body
            .split('&')
            .filter((pair) => !pair.startsWith(`${drop}=`))
            .join('&');
    return {
      url: request.url,
      init: { method: 'POST', headers: request.headers, body, signal: AbortSignal.timeout(10_000) },
    };
  }

  it('answers a signed SALE with 200 and application/vnd.pay+json', async () => {
    const { url, init } = signed(OP.SALE);
    assert.match(String((init.headers as Record<string, string>).accept), /application\/vnd\.pay\+json/);
    const answer = await fetch(url, init);
    const text = await answer.text();
    assert.equal(answer.status, 200, text);
    assert.equal(answer.headers.get('content-type'), 'application/vnd.pay+json');
    assert.equal(JSON.parse(text).type, 'async-response');
  });

  it('refuses a SALE without a required field, without the control, or without the Accept header (4xx)', async () => {
    for (const drop of ['email', 'control']) {
      const { url, init } = signed(OP.SALE, drop);
      const answer = await fetch(url, init);
      await answer.text();
      assert.equal(answer.status, 400, `without ${drop}`);
    }
    const { url, init } = signed(OP.SALE);
    const { accept: _, ...noAccept } = init.headers as Record<string, string>;
    const answer = await fetch(url, { ...init, headers: noAccept });
    await answer.text();
    assert.ok(answer.status >= 400 && answer.status < 500, `without Accept: ${answer.status}`);
  });

  it('answers an OAuth PAYOUT (security scheme http/OAuth) with 200, and the group URL form of SALE too', async () => {
    const payout = signed(OP.PAYOUT);
    assert.match(String((payout.init.headers as Record<string, string>).authorization), /^OAuth /);
    const answer = await fetch(payout.url, payout.init);
    await answer.text();
    assert.equal(answer.status, 200);
    const sale = signed(OP.SALE);
    const group = await fetch(sale.url.replace(/\/1001$/, '/group/1001'), sale.init);
    await group.text();
    assert.equal(group.status, 200);
  });
});
