// application/x-www-form-urlencoded bodies (RFC 5849 §3.4.1.3.1 reads them with `+` as a space) and
// `--param name=value` options.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeForm, parseParamOption } from '../../src/signing/form-body.ts';

describe('decodeForm', () => {
  it('reads + as a space in names and values', () => {
    assert.deepEqual(decodeForm('first+name=Jane+Q&x=1'), [
      ['first name', 'Jane Q'],
      ['x', '1'],
    ]);
  });

  it('skips empty segments, and an empty body has no pairs', () => {
    assert.deepEqual(decodeForm('a=1&&b=2&'), [
      ['a', '1'],
      ['b', '2'],
    ]);
    assert.deepEqual(decodeForm(''), []);
  });

  it('a segment without = is a name with an empty value, even where a later segment has one', () => {
    assert.deepEqual(decodeForm('a&b=c'), [
      ['a', ''],
      ['b', 'c'],
    ]);
    assert.deepEqual(decodeForm('=x&k=v=w&z'), [
      ['', 'x'],
      ['k', 'v=w'],
      ['z', ''],
    ]);
  });

  it('decodes escapes in either case, ASCII and UTF-8 alike, as decodeURIComponent does', () => {
    assert.deepEqual(decodeForm('u=https%3a%2F%2Fx&n=J%C3%A4ne+%26+%3d&e=%7e%7F'), [
      ['u', 'https://x'],
      ['n', 'Jäne & ='],
      ['e', '~\x7f'],
    ]);
  });

  it('a malformed escape names the field (default "body") and the 1-based parameter number', () => {
    const check = (text: string, field: string | undefined, expectedField: RegExp) =>
      assert.throws(
        () => (field === undefined ? decodeForm(text) : decodeForm(text, field)),
        (err: Error & { code?: string; field?: string }) => {
          assert.equal(err.code, 'ERR_ENCODING');
          assert.match(err.field ?? '', expectedField);
          assert.match(err.message, /malformed percent-escape/);
          return true;
        },
      );
    check('a=1&b=%ZZ', undefined, /^body \(parameter 2\)$/);
    check('a=%4Z', undefined, /^body \(parameter 1\)$/);
    check('a=ok%2', undefined, /^body \(parameter 1\)$/);
    check('a=%C3', undefined, /^body \(parameter 1\)$/);
    check('a=1&&c=3&d%ZZ=4', 'form', /^form \(parameter 4\)$/);
  });
});

describe('parseParamOption', () => {
  it('splits at the first =', () => {
    assert.deepEqual(parseParamOption('a=b=c'), ['a', 'b=c']);
    assert.deepEqual(parseParamOption('a='), ['a', '']);
  });

  const usageError = (field: string, shown: string) => (err: Error & { code?: string; field?: string }) => {
    assert.equal(err.code, 'ERR_FORM_BODY');
    assert.equal(err.field, field);
    assert.ok(err.message.startsWith(`${field}: `), err.message);
    assert.match(err.message, /must be written name=value/);
    assert.ok(err.message.includes(`"${shown}"`), err.message);
    return true;
  };

  it('rejects an option without a name or without =, naming the option (default "--param")', () => {
    assert.throws(() => parseParamOption('amount'), usageError('--param', 'amount'));
    assert.throws(() => parseParamOption('=10.00', '-p'), usageError('-p', '=10.00'));
  });

  it('shows at most the first 40 characters of a long option', () => {
    const long = 'x'.repeat(40) + 'TAIL';
    assert.throws(() => parseParamOption(long), usageError('--param', 'x'.repeat(40)));
    assert.throws(
      () => parseParamOption(long),
      (err: Error) => !err.message.includes('TAIL'),
    );
  });
  it('refuses a value read as U+FFFD (bytes that are not UTF-8), naming the parameter but never showing the value', () => {
    const rule = (name: string): string =>
      `${name} has bytes that are not UTF-8 (read as U+FFFD, which would be signed in their place); ` +
      'give the value as UTF-8 text';
    const refusal = (option: string, field: string, name: string) => {
      try {
        parseParamOption(option, field);
      } catch (err) {
        const {
          code,
          message,
          field: f,
          rule: r,
        } = err as { code: string; message: string; field: string; rule: string };
        return assert.deepEqual(
          { code, message, field: f, rule: r },
          {
            code: 'ERR_ENCODING',
            message: `${field}: ${rule(name)}`,
            field,
            rule: rule(name),
          },
        );
      }
      assert.fail(`no error for ${option}`);
    };
    refusal('card_holder=J\uFFFDrg', '--param', 'card_holder');
    // A name longer than 40 characters is cut at 40, as the usage error cuts an option.
    refusal(`${'n'.repeat(45)}=\uFFFD`, '-p', 'n'.repeat(40));
  });
});
