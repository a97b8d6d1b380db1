// The READMEs of a partner pack: each operation's README shows, for that operation's vectors only, the
// request as sent and the intermediate values; the top README links every operation and says how to check.
// Expected values come from the spec (endpoint path, control formula) and from hand computation
// (control digests with node:crypto, HMAC-SHA1 signatures of the base strings), not from pack.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePack, SECRETS_BANNER } from '../../src/vectors/pack.ts';
import { operationReadme } from '../../src/vectors/pack-readme.ts';

const pem = readFileSync(new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url), 'utf8');
const LOGIN = 'partner-login-7';
const KEY = 'partner-TEST-key-51ab';

interface V {
  id: string;
  description: string;
  request: { url: string; params: [string, string][] };
  oauth?: { nonce: string; timestamp: string; realm?: string };
  expected: { control?: string; baseString?: string; signature?: string };
}

// Operation of a vector from its URL path (api-spec.md endpoint table).
const OP_PATHS: Record<string, RegExp> = {
  SALE: /\/api\/v2\/sale\/\d+$/,
  PAYOUT: /\/api\/v2\/payout\/\d+(\?|$)/,
};

let dir: string;
let plain: string;
let secret: string;
let plainPaths: string[];
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'payconform-pack-readme-'));
  plain = join(dir, 'plain');
  secret = join(dir, 'secret');
  plainPaths = writePack({
    operations: ['SALE', 'PAYOUT'],
    outDir: plain,
    login: LOGIN,
    controlKey: KEY,
    privateKeyPem: pem,
    includeSecrets: false,
    force: false,
  });
  writePack({
    operations: ['SALE', 'PAYOUT'],
    outDir: secret,
    login: LOGIN,
    controlKey: KEY,
    includeSecrets: true,
    force: false,
  });
});
after(() => rmSync(dir, { recursive: true, force: true }));

const read = (...p: string[]): string => readFileSync(join(...p), 'utf8');
const vectorsOf = (root: string, op: string): V[] =>
  (JSON.parse(read(root, 'vectors.json')) as { vectors: V[] }).vectors.filter((v) => OP_PATHS[op]!.test(v.request.url));

/** Decimal amount to integer cents by string arithmetic (api-spec.md: 10.00 becomes 1000). */
function cents(amount: string): string {
  const [whole, frac = ''] = amount.split('.');
  return (BigInt(whole!) * 100n + BigInt((frac + '00').slice(0, 2))).toString();
}

/** Lines of a README from `## <id>` up to and including the opening of its code fence, as the format promises. */
function expectedHead(v: V): string[] {
  const realm = v.oauth?.realm === undefined ? '' : `, realm \`${v.oauth.realm}\``;
  return [
    `## ${v.id}`,
    '',
    v.description,
    '',
    `- URL: \`${v.request.url}\``,
    '- form parameters, in send order:',
    '',
    '| name | value |',
    '|---|---|',
    ...v.request.params.map(([n, val]) => `| \`${n}\` | \`${val}\` |`),
    '',
    ...(v.oauth ? [`- oauth_nonce \`${v.oauth.nonce}\`, oauth_timestamp \`${v.oauth.timestamp}\`${realm}`, ''] : []),
    'Step by step:',
    '',
    '```text',
  ];
}

/** Splits an operation README into its preamble and one block per vector, checking the shape of each block. */
function sections(text: string): { preamble: string[]; blocks: Map<string, string[]> } {
  const lines = text.split('\n');
  const starts = lines.flatMap((l, i) => (l.startsWith('## ') ? [i] : []));
  const blocks = new Map<string, string[]>();
  starts.forEach((s, k) => blocks.set(lines[s]!.slice(3), lines.slice(s, starts[k + 1] ?? lines.length)));
  return { preamble: lines.slice(0, starts[0] ?? lines.length), blocks };
}

function checkOperationReadme(
  root: string,
  op: string,
  header: string[],
): { vectors: V[]; blocks: Map<string, string[]> } {
  const vectors = vectorsOf(root, op);
  assert.ok(vectors.length >= 3, `${op} has vectors`);
  const { preamble, blocks } = sections(read(root, op, 'README.md'));
  assert.deepEqual(
    [...blocks.keys()],
    vectors.map((v) => v.id),
    `${op}/README.md has one section per ${op} vector, in file order, and no other`,
  );
  assert.deepEqual(preamble.slice(0, header.length), header);
  assert.equal(preamble[header.length], '');
  assert.match(preamble[header.length + 1]!, /vector.*intermediate value.*`\.\.\/vectors\.json`/);
  assert.deepEqual(preamble.slice(header.length + 2), [''], 'a blank line, then the first vector');
  for (const v of vectors) {
    const block = blocks.get(v.id)!;
    const head = expectedHead(v);
    assert.deepEqual(block.slice(0, head.length), head, `head of ${v.id}`);
    const close = block.indexOf('```', head.length);
    assert.ok(close > head.length, `${v.id}: the fence is closed`);
    assert.deepEqual(block.slice(close + 1), [''], `${v.id}: nothing after the fence but blank lines`);
  }
  return { vectors, blocks };
}

describe('partner pack: operation READMEs', () => {
  it('SALE: the spec endpoint and control formula, every request value, and the hand-computed control', () => {
    // api-spec.md, endpoint table: /api/v2/sale/{endpointId} ... control = SHA-1(endpointId + client_orderid + amount + email + merchant_control_key), amount in cents
    const header = [
      '# SALE: signature vectors',
      '',
      '`POST /api/v2/sale/{endpointId}`, signed with control = SHA-1(endpointId + client_orderid + amount + email + merchant_control_key), amount in cents.',
    ];
    const { vectors, blocks } = checkOperationReadme(plain, 'SALE', header);
    for (const v of vectors) {
      const p = new Map(v.request.params);
      const endpointId = v.request.url.split('/').at(-1)!;
      const concat = `${endpointId}${p.get('client_orderid')}${cents(p.get('amount')!)}${p.get('email')}`;
      const control = createHash('sha1')
        .update(concat + KEY, 'utf8')
        .digest('hex');
      assert.equal(v.expected.control, control, v.id);
      const fenced = blocks.get(v.id)!.join('\n');
      assert.ok(fenced.includes(`${concat}<merchant_control_key>`), `${v.id}: the concatenation, key as placeholder`);
      assert.ok(fenced.includes(control), `${v.id}: the control value`);
      assert.ok(!fenced.includes(KEY), `${v.id}: no control key`);
    }
  });

  it('PAYOUT: the endpoint and scheme, nonce / timestamp / realm lines, and the base string and HMAC-SHA1 signature', () => {
    const header = [
      '# PAYOUT: signature vectors',
      '',
      '`POST /api/v2/payout/{endpointId}`, signed with oauth-hmac-sha1.',
    ];
    const { vectors, blocks } = checkOperationReadme(plain, 'PAYOUT', header);
    assert.ok(
      vectors.some((v) => v.oauth?.realm),
      'the pack has a realm vector',
    );
    for (const v of vectors) {
      const signature = createHmac('sha1', `${KEY}&`).update(v.expected.baseString!, 'utf8').digest('base64');
      assert.equal(v.expected.signature, signature, v.id);
      const fenced = blocks.get(v.id)!.join('\n');
      assert.ok(
        fenced.includes(v.expected.baseString!) && fenced.includes(signature),
        `${v.id}: base string and signature shown`,
      );
    }
  });

  it('with secrets included, every operation README starts with the banner', () => {
    checkOperationReadme(secret, 'PAYOUT', [
      SECRETS_BANNER,
      '',
      '# PAYOUT: signature vectors',
      '',
      '`POST /api/v2/payout/{endpointId}`, signed with oauth-hmac-sha1.',
    ]);
    assert.match(SECRETS_BANNER, /^TEST-ONLY SECRETS INCLUDED/);
  });
});

describe('partner pack: top README and vectors.json', () => {
  function checkTop(text: string, header: string[]): string[] {
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, header.length + 2), [...header, '# Signature vectors for your integration', '']);
    const links = lines.indexOf('- [SALE](SALE/README.md)');
    assert.deepEqual(
      lines.slice(links - 1, links + 3),
      ['', '- [SALE](SALE/README.md)', '- [PAYOUT](PAYOUT/README.md)', ''],
      'one link per operation, in a list of its own',
    );
    const intro = lines.slice(header.length + 2, links - 1).join(' ');
    assert.match(intro, /payconform vectors pack/);
    assert.match(intro, /one folder per operation/i);
    assert.match(intro, /`vectors\.json`.*`payconform-vectors\/1`/);
    assert.equal(lines.at(-1), '', 'ends with a newline');
    return lines.slice(links + 3, -1);
  }

  it('without secrets: links each operation and says which variables to set to check', () => {
    const check = checkTop(read(plain, 'README.md'), []).join(' ');
    assert.match(check, /`<merchant_control_key>`.*`<PRIVATE_KEY>`/);
    assert.match(check, /PAYCONFORM_CONTROL_KEY/);
    assert.match(check, /PAYCONFORM_PRIVATE_KEY_FILE/);
    assert.match(check, /`npx payconform vectors check vectors\.json`/);
    const file = JSON.parse(read(plain, 'vectors.json')) as { description: string };
    assert.match(file.description, /^Partner pack for SALE, PAYOUT\b/);
    assert.ok(!file.description.includes('TEST-ONLY'));
  });

  it('with secrets: the banner first, and the check command without variables', () => {
    const check = checkTop(read(secret, 'README.md'), [SECRETS_BANNER, '']).join(' ');
    assert.match(check, /`npx payconform vectors check vectors\.json`/);
    assert.doesNotMatch(check, /PAYCONFORM_CONTROL_KEY|<merchant_control_key>/);
    const file = JSON.parse(read(secret, 'vectors.json')) as { description: string };
    assert.ok(file.description.startsWith(`${SECRETS_BANNER} Partner pack for SALE, PAYOUT`));
  });

  it('returns the paths of exactly the files written', () => {
    const onDisk = readdirSync(plain, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
    assert.equal(
      onDisk.length,
      5,
      "vectors.json, README.md, one README per operation and the pack's list of its own files",
    );
    assert.deepEqual([...plainPaths].sort(), onDisk.sort());
    for (const f of plainPaths) assert.ok(read(f).length > 0, f);
  });
});

describe('operationReadme', () => {
  it('leaves the description line blank for a vector without one', () => {
    const text = operationReadme(
      'SALE',
      [
        {
          id: 'bare',
          scheme: 'control',
          operation: 'SALE',
          request: {
            method: 'POST',
            url: 'https://h.example/api/v2/sale/1',
            params: [
              ['client_orderid', 'A'],
              ['amount', '1.00'],
              ['email', 'e'],
            ],
          },
          credentials: { merchantControlKey: KEY },
          expected: {},
        },
      ],
      [],
    );
    const lines = text.split('\n');
    const at = lines.indexOf('## bare');
    assert.deepEqual(lines.slice(at, at + 5), ['## bare', '', '', '', '- URL: `https://h.example/api/v2/sale/1`']);
  });
});
