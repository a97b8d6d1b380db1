/**
 * cucumber.html with a Content-Security-Policy. cucumber's page is its template, its stylesheet, its script and every
 * message of the run inline (`window.CUCUMBER_MESSAGES = […]`), so the hash of that script is known only once the
 * last message is written, while the policy must stand in the head. The page streams through `CspHashes`, which
 * leaves room for the policy in the head and hashes each inline `<style>` and `<script>` as it passes; once the file
 * is written, `writePolicy` puts the policy in that room. Nothing of the page is held in memory.
 */
import { createHash, type Hash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import { contentSecurityPolicy, escapeHtml } from './html.ts';

/** The policy stands after this tag of cucumber's template: the charset stays within the first 1024 bytes. */
const AFTER = 'http-equiv="Content-Type">';
/** What the room holds until the policy is written: a page that was never finished runs nothing. */
const UNFINISHED = `\n\t<meta http-equiv="Content-Security-Policy" content="default-src 'none'">`;
const ROOM = 1024;
/** The favicon of cucumber's template is a data: URL; the page loads nothing else. */
const IMAGES = 'img-src data:';

/**
 * The two styles cucumber's script adds to the page as it runs (Font Awesome's icon sizes, react-aria's
 * `touch-action`): constants of @cucumber/html-formatter's main.js, never in the file, so hashed here.
 * test/hostile/markup.test.ts opens the page in chromium and fails on any style refused, naming its hash.
 */
const ADDED_BY_SCRIPT = [
  "'sha256-vRkzjm/eem2C4oetMemP4rydMW/i+Ukj+Q9KzHLWzmY='",
  "'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o='",
];

const metaOf = (policy: string): string =>
  `\n\t<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">`;

export class CspHashes extends Transform {
  /** The byte offset of the policy's room in what has passed, once the head has. */
  private room: number | undefined;
  private passed = 0;
  /** Text not yet scanned: the head before its room is made, then at most a tag's length cut short by a chunk. */
  private pending = '';
  private inside: { readonly tag: 'style' | 'script'; readonly hash: Hash } | undefined;
  private readonly hashes = { style: [] as string[], script: [] as string[] };

  constructor() {
    super({ decodeStrings: false });
  }

  override _transform(chunk: string | Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const text = String(chunk);
    if (this.room === undefined) {
      this.pending += text;
      const at = this.pending.indexOf(AFTER);
      if (at < 0) return this.pending.includes('</head>') ? done(new Error(`cucumber.html has no ${AFTER}`)) : done();
      const head = this.pending.slice(0, at + AFTER.length);
      this.out(head);
      this.room = this.passed;
      this.out(UNFINISHED.padEnd(ROOM));
      const rest = this.pending.slice(head.length);
      this.pending = '';
      this.out(rest);
      this.scan(rest);
    } else {
      this.out(text);
      this.scan(text);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    done(this.room === undefined || this.inside !== undefined ? new Error('cucumber.html ended early') : undefined);
  }

  /** The policy the page needs, and where it goes; undefined before the stream has ended. */
  policy(): { readonly at: number; readonly meta: string } | undefined {
    if (this.room === undefined || !this.writableFinished) return undefined;
    const policy = contentSecurityPolicy([...this.hashes.style, ...ADDED_BY_SCRIPT], this.hashes.script, 'none', [
      IMAGES,
    ]);
    return { at: this.room, meta: metaOf(policy) };
  }

  private out(text: string): void {
    this.passed += Buffer.byteLength(text);
    this.push(text);
  }

  private scan(text: string): void {
    let rest = this.pending + text;
    for (;;) {
      if (this.inside === undefined) {
        const open = /<(style|script)>/.exec(rest);
        if (open === null) {
          this.pending = rest.slice(-'<script>'.length + 1);
          return;
        }
        this.inside = { tag: open[1] === 'style' ? 'style' : 'script', hash: createHash('sha256') };
        rest = rest.slice(open.index + open[0].length);
        continue;
      }
      const close = `</${this.inside.tag}>`;
      const at = rest.indexOf(close);
      if (at >= 0) {
        this.hashes[this.inside.tag].push(`'sha256-${this.inside.hash.update(rest.slice(0, at)).digest('base64')}'`);
        this.inside = undefined;
        rest = rest.slice(at + close.length);
        continue;
      }
      // Hash all but what could begin the closing tag, never cutting a surrogate pair in two.
      let cut = Math.max(0, rest.length - close.length + 1);
      if (cut > 0 && /[\uD800-\uDBFF]/.test(rest.charAt(cut - 1))) cut -= 1;
      this.inside.hash.update(rest.slice(0, cut));
      this.pending = rest.slice(cut);
      return;
    }
  }
}

/** Writes the policy of a finished page into its room in `file`. */
export async function writePolicy(file: string, hashes: CspHashes): Promise<void> {
  const policy = hashes.policy();
  if (policy === undefined) throw new Error('internal: cucumber.html is not finished');
  const bytes = Buffer.from(policy.meta.padEnd(ROOM));
  if (bytes.length > ROOM) throw new Error(`cucumber.html's policy needs more than ${ROOM} bytes`);
  const handle = await open(file, 'r+');
  try {
    await handle.write(bytes, 0, bytes.length, policy.at);
  } finally {
    await handle.close();
  }
}
