#!/usr/bin/env node
// Builds the signature debugger page (docs/debugger.md): src/debugger/page/page.ts bundled by esbuild
// for the browser, with node:crypto replaced by the page's own (src/debugger/browser/node-crypto.ts) and
// Node's Buffer injected, then inlined with its style into one HTML file whose Content-Security-Policy
// allows exactly these two inline blocks (by their SHA-256) and no connection at all.
// Writes dist/debugger/debugger.html; fails when the page outgrows MAX_BYTES. Run by `npm run build`.
import { build } from 'esbuild';
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const PAGE = join(ROOT, 'src/debugger/page');
export const OUT = join(ROOT, 'dist/debugger/debugger.html');
const MAX_BYTES = 600 * 1024;

const bundled = await build({
  entryPoints: [join(PAGE, 'page.ts')],
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  charset: 'utf8',
  legalComments: 'eof',
  logLevel: 'warning',
  alias: {
    'node:crypto': join(ROOT, 'src/debugger/browser/node-crypto.ts'),
    // node-forge asks for node's crypto only when it runs in node.
    crypto: join(ROOT, 'src/debugger/browser/empty.ts'),
  },
  inject: [join(ROOT, 'src/debugger/browser/buffer-global.ts')],
});
// An inline script ends at the first `</script`, wherever it stands: escape it inside the bundle.
const script = bundled.outputFiles[0].text.replaceAll('</script', '<\\/script').trim();
const style = readFileSync(join(PAGE, 'page.css'), 'utf8').trim();
const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const csp = [
  "default-src 'none'",
  `script-src ${hash(script)}`,
  `style-src ${hash(style)}`,
  "connect-src 'none'",
  "img-src 'none'",
  "font-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');
const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
// Function replacements: a `$` in the bundle must stay a `$`.
const html = readFileSync(join(PAGE, 'page.html'), 'utf8')
  .replace('__CSP__', () => csp)
  .replace('__VERSION__', () => version)
  // The template links its style and script; the page carries them inline, exactly the text the hashes cover.
  .replace('<link rel="stylesheet" href="page.css" />', () => `<style>${style}</style>`)
  .replace('<script src="page.js"></script>', () => `<script>${script}</script>`);
if (html.includes('href="page.css"') || html.includes('src="page.js"')) throw new Error('page.html: a link stayed');
const bytes = Buffer.byteLength(html);
if (bytes > MAX_BYTES) {
  console.error(`debugger page: ${bytes} bytes, over ${MAX_BYTES}`);
  process.exit(1);
}
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, html);
// On stderr: `npm pack --json` runs the build and its standard output must stay JSON.
console.error(`debugger page: ${(bytes / 1024).toFixed(1)} kB, ${OUT.slice(ROOT.length)}`);
