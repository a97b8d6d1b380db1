// The one redactor (src/report/redact.ts, redactEchoes) over hostile text: a secret a gateway echoes, in any
// of the ways it may be written, never survives it; card data is found where it stands as card data and
// nowhere else. Known answers are written by hand; the property tests build their text independently
// (encodeURIComponent, URLSearchParams, JSON.stringify, a Luhn digit computed here).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { redactAttachment, redactEchoes, redactJson } from '../../src/report/redact.ts';
import { fcParams, seed } from '../seed.ts';

const MARKER = '<redacted>';

/** Ways a gateway may write a value back: as is, percent-encoded (either case), form-encoded, JSON-escaped. */
const ENCODINGS: ReadonlyArray<readonly [string, (s: string) => string]> = [
  ['plain', (s) => s],
  ['percent', (s) => encodeURIComponent(s)],
  ['percent, lower-case hex', (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
  ['form', (s) => new URLSearchParams({ s }).toString().slice(2)],
  ['JSON', (s) => JSON.stringify(s).slice(1, -1)],
  [
    'JSON, ASCII only',
    (s) =>
      JSON.stringify(s)
        .slice(1, -1)
        .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  ],
  ['JSON inside JSON', (s) => JSON.stringify(JSON.stringify(s)).slice(1, -1)],
];
const encoding = fc.constantFrom(...ENCODINGS);

/** Text around a secret: anything, with a separator of its own on each side. */
const around = fc.string({ unit: 'grapheme', maxLength: 30 });
const separator = fc.constantFrom(' ', '', '"', ':', '=', '&', '\n', ',', '\\"', '%20', '(');

/** A control key: long, any characters (a few keys are part of the marker, which cannot be told from it). */
const controlKey = fc
  .string({ unit: 'binary-ascii', minLength: 8, maxLength: 40 })
  .chain((ascii) => fc.constantFrom(ascii, `${ascii}é€😀`, `${ascii} &=+%"\\/`))
  .filter((k) => !MARKER.includes(k) && /[^\s]/.test(k));

/** A card number: 13–19 digits whose last one makes the Luhn check pass (computed here, ISO/IEC 7812-1). */
const cardNumber = fc.integer({ min: 12, max: 18 }).chain((n) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((body) => {
    let sum = 0;
    body
      .slice()
      .reverse()
      .forEach((d, i) => (sum += i % 2 === 0 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d));
    return [...body, (10 - (sum % 10)) % 10].join('');
  }),
);

describe(`redactEchoes: secrets in hostile text (seed ${seed})`, () => {
  it('never lets the control key through, however it is written and whatever stands around it', () => {
    fc.assert(
      fc.property(controlKey, encoding, around, separator, around, separator, (key, [, enc], a, s1, b, s2) => {
        const out = redactEchoes(`${a}${s1}${enc(key)}${s2}${b}`, [], [key]);
        assert.ok(!out.includes(key), `plain key in ${JSON.stringify(out)}`);
        assert.ok(!out.includes(enc(key)), `encoded key in ${JSON.stringify(out)}`);
      }),
      fcParams(300),
    );
  });

  it("never lets a full card number through: the request's own, or any other, raw or grouped as on a card", () => {
    const grouped = (pan: string, sep: string): string => pan.replace(/(\d{4})(?=\d)/g, `$1${sep}`);
    fc.assert(
      fc.property(
        cardNumber,
        fc.boolean(),
        fc.constantFrom('', ' ', '-'),
        around.map((t) => t.replace(/[0-9]/g, 'x')),
        separator,
        (pan, sent, group, a, s) => {
          const written = grouped(pan, group);
          const pairs: Array<[string, string]> = sent ? [['credit_card_number', pan]] : [];
          const out = redactEchoes(`${a}${s}card ${written}${s}${a}`, pairs);
          assert.ok(!out.replace(/[ -]/g, '').includes(pan), `card number in ${JSON.stringify(out)}`);
          // Its first six and last four digits are kept, so the card can still be told.
          assert.ok(out.replace(/[ -]/g, '').includes(pan.slice(0, 6)), out);
          assert.ok(out.replace(/[ -]/g, '').includes(pan.slice(-4)), out);
        },
      ),
      fcParams(300),
    );
  });

  it('never lets the CVV the request sent through where it stands as a CVV', () => {
    const contexts: ReadonlyArray<(name: string, cvv: string) => string> = [
      (n, v) => `${n}=${v}`,
      (n, v) => JSON.stringify({ [n]: v }),
      (n, v) => JSON.stringify(JSON.stringify({ [n]: v })),
      (n, v) => `${n}: ${v}`,
      (n, v) => encodeURIComponent(`${n}="${v}"`),
      (n, v) => `invalid ${n} '${v}'`,
      (n, v) => `${v} is not the ${n} of this card`,
    ];
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{3,4}$/),
        fc.constantFrom('cvv2', 'CVV', 'cvc', 'security code', 'Card Verification Value', 'cvv2_value'),
        fc.constantFrom(...contexts),
        around.map((t) => t.replace(/[0-9]/g, '')),
        (cvv, name, context, a) => {
          const echoed = context(name, cvv);
          const out = redactEchoes(`${a} ${echoed} ${a}`, [['cvv2', cvv]]);
          assert.ok(!out.includes(cvv), `CVV ${cvv} in ${JSON.stringify(out)}`);
        },
      ),
      fcParams(300),
    );
  });

  it('replaces OAuth signatures, other Authorization credentials and private keys wherever they are quoted', () => {
    const base64 = fc.stringMatching(/^[A-Za-z0-9+/]{20,60}={0,2}$/);
    fc.assert(
      fc.property(base64, encoding, around, (secret, [, enc], a) => {
        for (const text of [
          `${a}Authorization: OAuth oauth_consumer_key="m", oauth_signature="${encodeURIComponent(secret)}"${a}`,
          `${a}${enc(`oauth_signature="${encodeURIComponent(secret)}"`)}${a}`,
          `${a}{"authorization":"Bearer ${secret}"}${a}`,
          `${a}${enc(`-----BEGIN PRIVATE KEY-----\n${secret}\n${secret}\n-----END PRIVATE KEY-----`)}${a}`,
          `${a}-----BEGIN RSA PRIVATE KEY-----\\n${secret}`,
        ]) {
          const out = redactEchoes(text, []);
          assert.ok(!out.includes(secret) && !out.includes(encodeURIComponent(secret)), JSON.stringify(out));
        }
      }),
      fcParams(200),
    );
  });
});

describe('redactEchoes leaves what is not card data alone', () => {
  it('keeps the sent CVV digits where they are an amount, a code or a count, and masks only the CVV', () => {
    // Hand-written: the request sent cvv2=100; the answer has 100 as an amount and 100 as the echoed CVV.
    const answer = '{"amount":"100","error-code":"100","error-message":"cvv2=100 refused, 100 tries left"}';
    assert.equal(
      redactEchoes(answer, [['cvv2', '100']]),
      '{"amount":"100","error-code":"100","error-message":"cvv2=*** refused, 100 tries left"}',
    );
  });

  it('keeps numbers that fail the Luhn check and short digit runs', () => {
    // 4111111111111112 fails the Luhn check (its check digit is 1); 20261128 is a date.
    const text = 'order 4111111111111112 of 20261128, serial 123456789012';
    assert.equal(redactEchoes(text, []), text);
  });
});

describe('redactJson and redactAttachment: JSON stays JSON', () => {
  it("masks a CVV that is a field's whole value, and a card number written as a JSON number", () => {
    // Hand-written: what a gateway may answer when it echoes the request's fields as JSON.
    const answer = { cvv2: '123', echo: { security_code: 4567, amount: 123 }, card: 4111111111111111, n: 7 };
    assert.deepEqual(redactJson(answer, [['cvv2', '123']]), {
      cvv2: '***',
      echo: { security_code: '***', amount: 123 },
      card: '411111******1111',
      n: 7,
    });
  });

  it('redacts a warning attachment value by value, so it still parses', () => {
    const warning = JSON.stringify({ assumption: 'A-17', actual: 'key "K-1" for card 4111111111111111, cvv2=123' });
    const shown = redactAttachment(warning, 'application/vnd.payconform.warning+json', [], ['"K-1"']);
    assert.deepEqual(JSON.parse(shown), {
      assumption: 'A-17',
      actual: 'key <redacted> for card 411111******1111, cvv2=***',
    });
  });
});
