/**
 * A shell command line split into words as a POSIX shell would, for the curl commands people paste:
 * single quotes, double quotes (\\, \", \$, \` escaped), $'…' (\n \r \t \\ \' escaped), backslash
 * escapes and line continuations. No expansion, no pipes: a curl command is read, never run.
 */
import { fieldError } from '../errors.ts';

const ANSI_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '\\': '\\', "'": "'", '"': '"' };

export function shellWords(text: string, field: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let i = 0;
  const add = (s: string): void => void (word = (word ?? '') + s);
  const closing = (quote: string, from: number): number => {
    const end = text.indexOf(quote, from);
    if (end < 0) throw fieldError('ERR_REQUEST_TEXT', field, `the curl command has an unclosed ${quote} quote`);
    return end;
  };
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === '\\' && (text[i + 1] === '\n' || text.startsWith('\r\n', i + 1))) {
      i += text[i + 1] === '\n' ? 2 : 3; // a line continuation joins lines
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
      i++;
    } else if (c === "'") {
      const end = closing("'", i + 1);
      add(text.slice(i + 1, end));
      i = end + 1;
    } else if (c === '$' && text[i + 1] === "'") {
      i += 2;
      let s = '';
      while (text[i] !== "'") {
        if (i >= text.length) throw fieldError('ERR_REQUEST_TEXT', field, "the curl command has an unclosed $' quote");
        if (text[i] === '\\') {
          s += ANSI_ESCAPES[text[i + 1] ?? ''] ?? `\\${text[i + 1] ?? ''}`;
          i += 2;
        } else s += text[i++];
      }
      add(s);
      i++;
    } else if (c === '"') {
      i++;
      let s = '';
      while (text[i] !== '"') {
        if (i >= text.length) throw fieldError('ERR_REQUEST_TEXT', field, 'the curl command has an unclosed " quote');
        if (text[i] === '\\' && '\\"$`\n'.includes(text[i + 1] ?? 'x')) {
          if (text[i + 1] !== '\n') s += text[i + 1];
          i += 2;
        } else s += text[i++];
      }
      add(s);
      i++;
    } else if (c === '\\') {
      add(text[i + 1] ?? '');
      i += 2;
    } else {
      add(c);
      i++;
    }
  }
  if (word !== null) words.push(word);
  return words;
}
