// The OAuth mistakes' own steps called directly: the partner's sort orders and the base URL as written. Expected
// orders are worked out by hand from the byte values of the names (RFC 5849 §3.4.1.3.2 sorts by bytes).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OAUTH_MISTAKES } from '../../src/signing/diagnose/oauth-mistakes.ts';
import { baseUrl, REFERENCE } from '../../src/signing/diagnose/oauth-recipe.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { normalizeUrl } from '../../src/signing/normalize-url.ts';

const recipes = (id: string) => {
  const m = OAUTH_MISTAKES.find((x) => x.id === id);
  assert.ok(m, id);
  return m.recipes.map((r) => ({ ...REFERENCE, ...r }));
};

describe('OAuth mistakes, sort orders', () => {
  it('sort-by-name-only sorts by name and keeps equal names in send order', () => {
    const [recipe] = recipes('sort-by-name-only');
    const sent: Pair[] = [
      ['b', '1'],
      ['a', '3'],
      ['a', '1'],
      ['a', '2'],
    ];
    assert.deepEqual(recipe!.sort(sent), [
      ['a', '3'],
      ['a', '1'],
      ['a', '2'],
      ['b', '1'],
    ]);
  });

  it('case-insensitive-sort compares lowercased names, then values', () => {
    const [lowered] = recipes('case-insensitive-sort');
    // Lowercased: "ab" > "a_" ("b" is 0x62, "_" 0x5F); uppercased they would compare the other way ("B" is 0x42).
    const sent: Pair[] = [
      ['b', '1'],
      ['a_', '1'],
      ['Ab', '1'],
      ['A', '2'],
      ['a', '1'],
    ];
    assert.deepEqual(lowered!.sort(sent), [
      ['a', '1'],
      ['A', '2'],
      ['a_', '1'],
      ['Ab', '1'],
      ['b', '1'],
    ]);
  });
});

describe('OAuth mistakes, the base URL as written', () => {
  it('default-port-kept keeps :443 and lowercases scheme and host', () => {
    const [recipe] = recipes('default-port-kept');
    assert.equal(baseUrl(recipe!, normalizeUrl('HTTPS://H.Example:443/Pay?x=1')), 'https://h.example:443/Pay');
  });

  it('keeps a URL as it is when it is not written scheme://host, even if one appears later in it', () => {
    // WHATWG URL reads https:h.example/x as https://h.example/x; the text itself has no "//" after the scheme.
    const [recipe] = recipes('default-port-kept');
    const input = 'https:h.example/x?u=http://a.b';
    assert.equal(baseUrl(recipe!, normalizeUrl(input)), input);
  });
});
