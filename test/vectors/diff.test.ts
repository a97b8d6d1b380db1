// firstDifference: the position, the window of `context` characters either side (… where cut) and
// a caret line that points at the differing character in the window as shown.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { firstDifference } from '../../src/signing/first-difference.ts';

describe('firstDifference', () => {
  it('is null for equal strings', () => {
    assert.equal(firstDifference('', ''), null);
    assert.equal(firstDifference('POST&a', 'POST&a'), null);
  });

  it('shows whole strings, without ellipses, when the window covers them', () => {
    const d = firstDifference('abcdef', 'abXdef', 4)!;
    assert.equal(d.position, 2);
    assert.equal(d.expected, 'abcdef');
    assert.equal(d.actual, 'abXdef');
    assert.equal(d.caret, '  ');
  });

  it('adds no leading … when the window starts exactly at the first character', () => {
    const d = firstDifference('abcdX', 'abcdY', 4)!;
    assert.equal(d.position, 4);
    assert.equal(d.expected, 'abcdX');
    assert.equal(d.actual, 'abcdY');
    assert.equal(d.caret, '    ');
  });

  it('cuts both sides with … and keeps the caret under the differing character', () => {
    const d = firstDifference('0123456789ABCDEF', '0123456789XBCDEF', 3)!;
    assert.equal(d.position, 10);
    // Characters 7..12 (3 before, the differing one, 2 after), cut on both sides.
    assert.equal(d.expected, '…789ABC…');
    assert.equal(d.actual, '…789XBC…');
    assert.equal(d.caret, ' '.repeat(d.expected.indexOf('A')));
    assert.equal(d.caret, ' '.repeat(d.actual.indexOf('X')));
  });

  it('cuts one side only when the other end is in the window', () => {
    const d = firstDifference('xxxxxxxxA', 'xxxxxxxxB', 3)!;
    assert.equal(d.position, 8);
    assert.equal(d.expected, '…xxxA');
    assert.equal(d.caret, ' '.repeat(d.expected.indexOf('A')));
  });

  it('points just past the shorter string when it is a prefix of the other', () => {
    const d = firstDifference('abc', 'abcd')!;
    assert.equal(d.position, 3);
    assert.equal(d.expected, 'abc');
    assert.equal(d.actual, 'abcd');
    assert.equal(d.caret, '   ');
    assert.equal(firstDifference('abcd', 'abc')!.position, 3);
  });

  it('uses 30 characters either side by default', () => {
    const a = `${'a'.repeat(50)}X${'b'.repeat(49)}`;
    const b = `${'a'.repeat(50)}Y${'b'.repeat(49)}`;
    const d = firstDifference(a, b)!;
    assert.equal(d.position, 50);
    assert.equal(d.expected, `…${'a'.repeat(30)}X${'b'.repeat(29)}…`);
    assert.equal(d.caret, ' '.repeat(31));
  });
});
