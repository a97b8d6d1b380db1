/**
 * The pack's folder rules read whole, on folders built by hand: which folder --out may be, which
 * marker makes a folder a pack, and what installing leaves behind. Calls previousPack and installPack
 * directly, so the mutation run (which does not run the CLI) sees every refusal and every mode.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPayconformError } from '../../src/errors.ts';
import { installPack, previousPack } from '../../src/vectors/pack-folder.ts';

let root: string;
let n = 0;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'payconform-pack-folder-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

/** A fresh parent folder of its own, so what installing leaves beside --out can be listed. */
const parent = (): string => {
  const p = join(root, `case-${n++}`);
  mkdirSync(p);
  return p;
};

/** The error thrown, as code and whole message. */
function thrown(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (err) {
    assert.ok(isPayconformError(err), String(err));
    return { code: err.code, message: err.message };
  }
  assert.fail('no error thrown');
}

const MARKER = '.payconform-pack.json';
/** A pack's folder holding the marker text given and a README.md. */
function folderWithMarker(marker: string): string {
  const out = join(parent(), 'pack');
  mkdirSync(out);
  writeFileSync(join(out, MARKER), marker);
  writeFileSync(join(out, 'README.md'), 'pack readme');
  return out;
}
const notAPack = (out: string): { code: string; message: string } => ({
  code: 'ERR_OUT_DIR',
  message:
    `--out: ${out} is not empty and holds no payconform pack (no valid .payconform-pack.json); ` +
    'choose another --out (--force replaces only a pack)',
});
const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe('previousPack', () => {
  it('has nothing to replace for a missing folder, a path under a file, and an empty folder', () => {
    const p = parent();
    assert.deepEqual(previousPack(join(p, 'missing'), true), []);
    writeFileSync(join(p, 'file'), 'x');
    assert.deepEqual(previousPack(join(p, 'file', 'pack'), false), []);
    mkdirSync(join(p, 'empty'));
    assert.deepEqual(previousPack(join(p, 'empty'), false), []);
  });

  it('refuses a symbolic link to a folder, and a path it cannot read, naming --out', () => {
    const p = parent();
    mkdirSync(join(p, 'real'));
    symlinkSync(join(p, 'real'), join(p, 'link'));
    assert.deepEqual(
      thrown(() => previousPack(join(p, 'link'), true)),
      { code: 'ERR_OUT_DIR', message: `--out: ${join(p, 'link')} is a symbolic link; give a folder` },
    );
    // A name longer than the file system's 255 bytes cannot even be looked up.
    const long = join(p, 'x'.repeat(300));
    assert.deepEqual(
      thrown(() => previousPack(long, true)),
      { code: 'ERR_IO', message: `--out: cannot read ${long} (ENAMETOOLONG)` },
    );
  });

  it("a marker in the pack's format listing the pack's names is a pack: --force gets its list as written", () => {
    const listed = ['README.md', 'vectors.json', 'SALE/README.md', MARKER];
    const out = folderWithMarker(JSON.stringify({ format: 'payconform-pack/1', files: listed }));
    // vectors.json and SALE/README.md are gone already: a file the user removed is no obstacle.
    assert.deepEqual(previousPack(out, true), listed);
    assert.deepEqual(
      thrown(() => previousPack(out, false)),
      {
        code: 'ERR_OUT_DIR',
        message: `--out: ${out} exists and is not empty (an earlier pack); choose another --out or pass --force`,
      },
    );
  });

  it('any other marker makes the folder not a pack, even with --force', () => {
    const format = 'payconform-pack/1';
    const markers = [
      'not json',
      'null',
      JSON.stringify({ format: 'payconform-pack/2', files: ['README.md'] }),
      JSON.stringify({ format, files: 'README.md' }),
      JSON.stringify({ format, files: [['README.md']] }), // an array whose text is a pack name
      JSON.stringify({ format, files: ['x/README.md'] }), // a folder name is an operation's: capitals
      JSON.stringify({ format, files: ['README.md.orig'] }),
    ];
    for (const marker of markers) {
      const out = folderWithMarker(marker);
      assert.deepEqual(
        thrown(() => previousPack(out, true)),
        notAPack(out),
        marker,
      );
    }
    // A marker that is a link to a valid one elsewhere is not the pack's own file.
    const out = folderWithMarker('');
    const elsewhere = join(out, '..', 'marker.json');
    writeFileSync(elsewhere, JSON.stringify({ format, files: ['README.md'] }));
    rmSync(join(out, MARKER));
    symlinkSync(elsewhere, join(out, MARKER));
    assert.deepEqual(
      thrown(() => previousPack(out, true)),
      notAPack(out),
    );
  });

  it('refuses a pack whose file was turned into a folder', () => {
    const out = folderWithMarker(JSON.stringify({ format: 'payconform-pack/1', files: ['STATUS/README.md'] }));
    mkdirSync(join(out, 'STATUS', 'README.md'), { recursive: true });
    assert.deepEqual(
      thrown(() => previousPack(out, true)),
      {
        code: 'ERR_OUT_DIR',
        message:
          `--out: ${join(out, 'STATUS', 'README.md')} is not a regular file, so the earlier pack was ` +
          'changed by hand; move it away',
      },
    );
  });
});

describe('installPack', () => {
  const files = new Map([
    ['README.md', 'index'],
    ['SALE/README.md', 'sale'],
  ]);
  const tree = (out: string): string[] => readdirSync(out, { recursive: true }).map(String).sort();

  it('a new folder is the staged one moved whole: its mode set, whatever the umask, and no staging left', () => {
    const p = parent();
    const before = process.umask(0o077);
    try {
      installPack(join(p, 'public'), files, [], 0o644);
      installPack(join(p, 'private'), files, [], 0o600);
    } finally {
      process.umask(before);
    }
    assert.deepEqual(readdirSync(p).sort(), ['private', 'public']);
    assert.deepEqual(tree(join(p, 'public')), ['README.md', 'SALE', 'SALE/README.md']);
    assert.equal(readFileSync(join(p, 'public', 'SALE', 'README.md'), 'utf8'), 'sale');
    // Without secrets others may read the folder; with them (0600 files) only its owner.
    assert.equal(modeOf(join(p, 'public')), '755');
    assert.equal(modeOf(join(p, 'private')), '700');
    assert.equal(modeOf(join(p, 'private', 'SALE', 'README.md')), '600');
  });

  it("an existing folder keeps its own mode and the user's files; the earlier pack's files go, even one already gone", () => {
    const p = parent();
    const out = join(p, 'pack');
    mkdirSync(out);
    chmodSync(out, 0o750);
    writeFileSync(join(out, 'README.md'), 'old index');
    writeFileSync(join(out, MARKER), 'old marker');
    // All of the earlier pack's files go, so the folder is empty for a moment: it must stay itself.
    installPack(out, files, ['README.md', MARKER, 'vectors.json'], 0o644);
    assert.deepEqual(tree(out), ['README.md', 'SALE', 'SALE/README.md']);
    assert.equal(readFileSync(join(out, 'README.md'), 'utf8'), 'index');
    assert.equal(modeOf(out), '750');
    // Again over that pack, with a file of the user's in the pack's subfolder and one beside it.
    writeFileSync(join(out, 'SALE', 'notes.txt'), 'mine');
    writeFileSync(join(out, 'mine.txt'), 'mine');
    installPack(out, new Map([['README.md', 'index 2']]), [...files.keys()], 0o644);
    assert.deepEqual(tree(out), ['README.md', 'SALE', 'SALE/notes.txt', 'mine.txt']);
    assert.equal(readFileSync(join(out, 'README.md'), 'utf8'), 'index 2');
    assert.deepEqual(readdirSync(p), ['pack'], 'no staging folder left');
  });
});
