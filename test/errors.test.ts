// One error root, checked from one table (as undici's test/errors.js does): for every code, a library
// call that raises it, the class it comes as, and the field and message it must name. The table is a
// Record over PayconformErrorCode, so a new code without a row fails the type check.
import { bundleSigningKey } from '../src/report/bundle-signature.ts';
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fieldError, isPayconformError, PayconformError, type PayconformErrorCode } from '../src/errors.ts';
import { endpointByOperation, matchPath, OP } from '../src/catalogue/index.ts';
import { parseCommandArgs } from '../src/cli/args.ts';
import { buildRequest } from '../src/client/client.ts';
import { readMerchants } from '../src/gateway/merchants.ts';
import { readFaults } from '../src/gateway/fault-settings.ts';
import { harContents } from '../src/report/har-read.ts';
import { readLedgers } from '../src/prove/ledger.ts';
import { parseAuthorizationHeader } from '../src/signing/authorization-header.ts';
import { toCents } from '../src/signing/cents.ts';
import { parseParamOption } from '../src/signing/form-body.ts';
import { loadPrivateKey } from '../src/signing/keys.ts';
import { normalizeUrl } from '../src/signing/normalize-url.ts';
import { signOAuth } from '../src/signing/oauth.ts';
import { percentDecode } from '../src/signing/percent-encode.ts';
import { parseRawRequest } from '../src/signing/raw-request.ts';
import { signableScheme, signRequest } from '../src/signing/sign.ts';
import { parseVectorFile, VectorFileError } from '../src/vectors/load.ts';
import { writePack } from '../src/vectors/pack.ts';
import { defectNamed } from '../src/mock/defects.ts';
import { wholeNumber } from '../src/whole-number.ts';
import { checkTargetChoice } from '../src/suite/live-safety.ts';
import { profileOf } from '../src/suite/profile.ts';
import { checkTagExpression } from '../src/suite/selection.ts';
import { runCli } from './support/cli.ts';

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'payconform-errors-'));
  writeFileSync(join(dir, 'a-file'), 'x');
  mkdirSync(join(dir, 'no-ledgers'));
  writeFileSync(join(dir, 'merchants.json'), '{');
  writeFileSync(join(dir, 'faults.json'), '{"rates": {"timeout": 1.5}}');
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface Row {
  /** How the error is raised, for the test title. */
  readonly by: string;
  readonly raise: () => unknown;
  readonly class: abstract new (...args: never[]) => PayconformError<string>;
  readonly name: string;
  readonly field: string | RegExp;
  readonly message: RegExp;
  /** The lower-level error it wraps, when the code passes one on as `cause`. */
  readonly cause?: (cause: unknown) => boolean;
}

const base = (
  by: string,
  raise: () => unknown,
  field: string | RegExp,
  message: RegExp,
  cause?: Row['cause'],
): Row => ({ by, raise, class: PayconformError, name: 'PayconformError', field, message, ...(cause ? { cause } : {}) });
const errno = (code: string) => (cause: unknown) => (cause as NodeJS.ErrnoException).code === code;
const oauthKey = { method: 'HMAC-SHA1', consumerSecret: 'c' } as const;
const writePackTo = (operations: string[], outDir: string) => () =>
  writePack({ operations, outDir, login: 'l', controlKey: 'k', includeSecrets: false, force: false });

const ROWS: Record<PayconformErrorCode, Row> = {
  ERR_AMOUNT_FORMAT: base('toCents', () => toCents('1.234'), 'amount', /^amount: /),
  ERR_ENCODING: base(
    'percentDecode',
    () => percentDecode('%zz', 'q'),
    'q',
    /^q: has a malformed percent-escape/,
    (c) => c instanceof URIError,
  ),
  ERR_URL: base(
    'normalizeUrl',
    () => normalizeUrl('gw.example/api'),
    'url',
    /^url: must be an absolute URL/,
    (c) => c instanceof TypeError,
  ),
  ERR_FORM_BODY: base(
    'parseParamOption',
    () => parseParamOption('oops'),
    '--param',
    /^--param: "oops" must be written name=value$/,
  ),
  ERR_UNKNOWN_OPERATION: base(
    'endpointByOperation',
    () => endpointByOperation('NO_SUCH_OPERATION'),
    'operation',
    /^operation: "NO_SUCH_OPERATION" is not in the catalogue/,
  ),
  ERR_UNKNOWN_ENDPOINT: base(
    'matchPath',
    () => matchPath('/api/v2/no-such-endpoint/1'),
    'url',
    /^url: path "\/api\/v2\/no-such-endpoint\/1" matches no catalogue endpoint/,
  ),
  ERR_ENDPOINT_ID: base(
    'buildRequest without an endpointId',
    () => buildRequest(endpointByOperation(OP.SALE), { baseUrl: 'https://gw.example', credentials: {} }, []),
    'endpointId',
    /^endpointId: missing \(give --endpoint-id or set PAYCONFORM_ENDPOINT_ID\)$/,
  ),
  ERR_MISSING_FIELD: base(
    'signRequest without a formula field',
    () =>
      signRequest(
        { method: 'POST', url: 'https://gw.example/api/v2/sale/1', params: [] },
        { login: 'l', controlKey: 'k' },
      ),
    'client_orderid',
    /^client_orderid: is missing/,
  ),
  ERR_SCHEME: base(
    'signableScheme',
    () => signableScheme(endpointByOperation(OP.PAYMENTFORM)),
    'operation',
    /^operation: PAYMENTFORM has no authentication stated/,
  ),
  ERR_CREDENTIALS: base(
    'signRequest without a control key',
    () => signRequest({ method: 'POST', url: 'https://gw.example/api/v2/sale/1', params: [] }, {}),
    'control key',
    /^control key: missing/,
  ),
  ERR_KEY: base('loadPrivateKey', () => loadPrivateKey('nope'), 'private key', /^private key: is not PEM/),
  ERR_AUTH_HEADER: base(
    'parseAuthorizationHeader',
    () => parseAuthorizationHeader('Basic x'),
    'authorization',
    /^authorization: /,
  ),
  ERR_REQUEST_TEXT: base(
    'parseRawRequest without a Host header',
    () => parseRawRequest('POST /api/v2/sale/1 HTTP/1.1\n\namount=1', 'https', 'Request'),
    'Request',
    /^Request: needs a Host header to rebuild the URL$/,
  ),
  ERR_TIMESTAMP: base(
    'signOAuth',
    () =>
      signOAuth(
        { method: 'POST', url: 'https://gw.example/x', params: [] },
        { consumerKey: 'm', nonce: 'n', timestamp: '1.5', version: '1.0' },
        oauthKey,
      ),
    'timestamp',
    /^timestamp: must be whole seconds since 1970 \(digits only\)$/,
  ),
  ERR_USAGE: base(
    'parseCommandArgs',
    () => parseCommandArgs({ name: 'demo', summary: '', usage: '', options: {} }, ['--nope']),
    'demo',
    /^Unknown option '--nope' \(see payconform demo --help\)$/,
    (c) => (c as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION',
  ),
  ERR_IO: base(
    'readMerchants of a missing file',
    () => readMerchants(join(dir, 'none.json')),
    /none\.json$/,
    /none\.json: cannot read \(ENOENT\)$/,
    errno('ENOENT'),
  ),
  ERR_VECTOR_INVALID: {
    by: 'parseVectorFile',
    raise: () => parseVectorFile('{}', 'v.json'),
    class: VectorFileError,
    name: 'VectorFileError',
    field: 'v.json',
    message: /^v\.json: /,
  },
  ERR_NO_OPERATION: base(
    'writePack with no operation',
    writePackTo([], join(dir, 'pack')),
    '--operation',
    /^--operation: give at least one operation$/,
  ),
  ERR_OUT_DIR: base(
    'writePack into a file',
    writePackTo([OP.STATUS], join(dir, 'a-file')),
    '--out',
    /^--out: .*a-file is a file; give a folder$/,
  ),
  ERR_MERCHANTS: base(
    'readMerchants of a file that is not JSON',
    () => readMerchants(join(dir, 'merchants.json')),
    /merchants\.json$/,
    /merchants\.json: is not JSON$/,
  ),
  ERR_LEDGER: base(
    'readLedgers of a folder without ledgers',
    () => readLedgers(join(dir, 'no-ledgers')),
    /no-ledgers\/[a-z0-9-]+\.json$/,
    /\.json: \/: is missing: every defect needs a ledger/,
  ),
  ERR_WHOLE_NUMBER: base(
    'wholeNumber of a word',
    () => wholeNumber('eighty', '--port', 0, 65535),
    '--port',
    /^--port: must be a whole number from 0 to 65535$/,
  ),
  ERR_LIVE_RUN: base(
    'checkTargetChoice of a sandbox without --live',
    () => checkTargetChoice({ baseUrl: 'https://sandbox.example/paynet', live: false }),
    '--live',
    /^--live: required for a base URL that is not loopback \(https:\/\/sandbox\.example\)/,
  ),
  ERR_TARGET: base(
    'checkTargetChoice of a defect with a base URL',
    () => checkTargetChoice({ baseUrl: 'http://127.0.0.1:9/paynet', live: false, defect: 'lose-order' }),
    '--defect',
    /^--defect: applies to the embedded mock only/,
  ),
  ERR_PROFILE: base(
    'profileOf with an unknown setting',
    () => profileOf({ colour: 'blue' }, 'p.json'),
    '--profile',
    /^--profile p\.json: \/colour: is not a profile setting$/,
  ),
  ERR_FAULTS: base(
    'readFaults of a file with a rate over 1',
    () => readFaults(join(dir, 'faults.json')),
    '--faults',
    /^--faults \/.*\/faults\.json: \/rates\/timeout: must be a number 0\.\.1$/,
  ),
  ERR_HAR: base(
    'harContents of an entry without its response',
    () => harContents({ log: { entries: [{ request: { method: 'POST', url: 'u', headers: [] } }] } }, 'x.har'),
    'x.har',
    /^x\.har: \/log\/entries\/0: must have required property 'response'$/,
  ),
  ERR_BUNDLE: base(
    'bundleSigningKey of a key that is not PEM',
    () => bundleSigningKey('not a key', '--sign-key'),
    '--sign-key',
    /^--sign-key: is not a PEM private key$/,
  ),
  ERR_SELECTION: base(
    'checkTagExpression of a dangling and',
    () => checkTagExpression('@a and'),
    '--tags',
    /^--tags: "@a and" is not a tag expression \(Expected operand\.\)$/,
    (cause) => cause instanceof Error,
  ),
  ERR_UNKNOWN_DEFECT: base(
    'defectNamed of no defect',
    () => defectNamed('no-such-defect'),
    '--defect',
    /^--defect: must be one of the defects listed by "payconform mock --list-defects" \(got "no-such-defect"\)$/,
  ),
};

function caught(raise: () => unknown): unknown {
  try {
    raise();
  } catch (err) {
    return err;
  }
  assert.fail('expected an error');
}

describe('PayconformError: one row per code', () => {
  for (const [code, row] of Object.entries(ROWS)) {
    it(`${code}: ${row.by} raises a ${row.name} naming ${row.field}`, () => {
      const err = caught(row.raise);
      assert.ok(err instanceof row.class, `${String(err)} is not a ${row.class.name}`);
      assert.ok(err instanceof PayconformError);
      assert.ok(isPayconformError(err));
      assert.equal(err.name, row.name);
      assert.equal(err.code, code);
      if (typeof row.field === 'string') assert.equal(err.field, row.field);
      else assert.match(err.field ?? '', row.field);
      assert.equal(typeof err.rule, 'string');
      assert.notEqual(err.rule, '');
      assert.match(err.message, row.message);
      if (row.cause) assert.ok(row.cause(err.cause), `cause ${String(err.cause)}`);
      else assert.equal(err.cause, undefined);
    });
  }

  it('a subclass names its own codes, and is still a PayconformError', () => {
    class DemoError extends PayconformError<'DEMO_REFUSED'> {
      constructor(
        readonly status: number,
        message: string,
      ) {
        super('DEMO_REFUSED', message, { field: 'demo', rule: 'refused' });
        this.name = 'DemoError';
      }
    }
    const err: unknown = new DemoError(400, 'demo: refused');
    assert.ok(err instanceof PayconformError && isPayconformError(err));
    assert.deepEqual(
      [err.name, err.code, err.field, err.rule, (err as DemoError).status],
      ['DemoError', 'DEMO_REFUSED', 'demo', 'refused', 400],
    );
    // @ts-expect-error the base class takes only payconform's codes unless a subclass names its own
    assert.equal(new PayconformError('ERR_NO_SUCH_CODE', 'x').code, 'ERR_NO_SUCH_CODE');
  });

  it('passes a cause on, and has none when given none', () => {
    const cause = new Error('low level');
    assert.equal(new PayconformError('ERR_IO', 'x', { cause }).cause, cause);
    assert.equal(fieldError('ERR_IO', 'f', 'rule', cause).cause, cause);
    assert.ok(!('cause' in new PayconformError('ERR_IO', 'x')));
    assert.ok(!('cause' in fieldError('ERR_IO', 'f', 'rule')));
  });
});

describe('the CLI prints the new library codes as before: one line, exit 2', () => {
  const cases: Array<[PayconformErrorCode, string[], Record<string, string>, string]> = [
    [
      'ERR_TIMESTAMP',
      ['sign', '--url', 'https://gw.example/api/v2/payout/7', '--login', 'm', '--nonce', 'n', '--timestamp', '1.5'],
      { PAYCONFORM_CONTROL_KEY: 'k' },
      'payconform sign: timestamp: must be whole seconds since 1970 (digits only)',
    ],
    [
      'ERR_FORM_BODY',
      ['sign', '--url', 'https://gw.example/api/v2/sale/7', '--param', 'oops'],
      { PAYCONFORM_CONTROL_KEY: 'k' },
      'payconform sign: --param: "oops" must be written name=value',
    ],
    [
      'ERR_NO_OPERATION',
      ['vectors', 'pack', '--out', '<dir>/pack'],
      { PAYCONFORM_LOGIN: 'l', PAYCONFORM_CONTROL_KEY: 'k' },
      'payconform vectors pack: --operation: give at least one operation',
    ],
    [
      'ERR_OUT_DIR',
      ['vectors', 'pack', '--operation', OP.SALE, '--out', '<dir>/a-file'],
      { PAYCONFORM_LOGIN: 'l', PAYCONFORM_CONTROL_KEY: 'k' },
      'payconform vectors pack: --out: <dir>/a-file is a file; give a folder',
    ],
    [
      'ERR_MERCHANTS',
      ['mock', '--merchants', '<dir>/merchants.json'],
      {},
      'payconform mock: <dir>/merchants.json: is not JSON',
    ],
  ];
  for (const [code, args, env, line] of cases) {
    it(`${code}: ${line.replaceAll('<dir>/', '')}`, async () => {
      const r = await runCli(
        args.map((a) => a.replace('<dir>', dir)),
        env,
      );
      assert.deepEqual([r.code, r.err, r.out], [2, `${line.replace('<dir>', dir)}\n`, '']);
    });
  }
});

// ERR_USAGE is for command-line mistakes: only src/cli/ raises it. src/errors.ts declares it.
const CLI_DIR = 'src/cli/';
const DECLARED_IN = 'src/errors.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every .ts file under src/, as a path from the project root with / separators. */
function sourceFiles(): string[] {
  return readdirSync(join(ROOT, 'src'), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).replaceAll('\\', '/'))
    .sort();
}

describe('ERR_USAGE stays in the command line', () => {
  const users = sourceFiles().filter((file) => readFileSync(join(ROOT, file), 'utf8').includes('ERR_USAGE'));

  it('no library file raises ERR_USAGE', () => {
    assert.ok(
      users.some((file) => file.startsWith(CLI_DIR)),
      'the scan finds the CLI uses (it reads the right folder)',
    );
    const outside = users.filter((file) => !file.startsWith(CLI_DIR) && file !== DECLARED_IN);
    assert.deepEqual(
      outside,
      [],
      'library code raises a specific code (add one to PayconformErrorCode in src/errors.ts)',
    );
  });
});
