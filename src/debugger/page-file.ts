/**
 * The built page (dist/debugger/debugger.html, made by `npm run build`: scripts/build-debugger.mjs), and how
 * to tell a file is one: `debugger --out --force` replaces only a page it wrote.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fieldError } from '../errors.ts';
import { packageFile } from '../package-root.ts';

export const PAGE_FILE = packageFile('dist/debugger/debugger.html');
/** The page's generator line (page.html): written by payconform, with its version after it. */
const MARKER = '<meta name="generator" content="payconform debugger ';

export function debuggerPage(): string {
  if (!existsSync(PAGE_FILE))
    throw fieldError('ERR_IO', 'debugger page', 'is not built: run npm run build (dist/debugger/debugger.html)');
  return readFileSync(PAGE_FILE, 'utf8');
}

/** Whether a file's text is a debugger page (its head names payconform's generator). */
export const isDebuggerPage = (text: string): boolean => text.slice(0, 4096).includes(MARKER);
