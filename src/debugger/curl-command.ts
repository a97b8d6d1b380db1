/**
 * A curl command as partners paste it, read back into the request it sends: the URL, the method (-X,
 * or POST when there is data), the Authorization header, and the form body from -d/--data/--data-raw/
 * --data-binary/--data-urlencode (curl joins several with &; --data-urlencode encodes the value).
 * Options that change nothing signed are skipped; reading a file (@file) is refused: the page has no files.
 */
import { fieldError } from '../errors.ts';
import { decodeForm } from '../signing/form-body.ts';
import type { RawRequest } from '../signing/raw-request.ts';
import { shellWords } from './shell-words.ts';

const DATA = new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-ascii']);
/** curl options that take a value and change nothing the signature covers. */
const SKIPPED_WITH_VALUE = new Set([
  '-o',
  '--output',
  '-A',
  '--user-agent',
  '-e',
  '--referer',
  '-m',
  '--max-time',
  '--connect-timeout',
  '-b',
  '--cookie',
  '-c',
  '--cookie-jar',
  '--cert',
  '--key',
  '--cacert',
  '-w',
  '--write-out',
  '--retry',
  '-x',
  '--proxy',
  '--resolve',
  '-E',
  '-u',
  '--user',
]);

/** --data-urlencode's forms: `content`, `=content`, `name=content` (value encoded); `@file` forms are refused. */
function urlencodeData(value: string, field: string): string {
  const eq = value.indexOf('=');
  if (value.startsWith('@') || (eq < 0 && value.includes('@')))
    throw fieldError('ERR_REQUEST_TEXT', field, '--data-urlencode from a file cannot be read here; paste the value');
  if (eq < 0) return encodeURIComponent(value);
  const name = value.slice(0, eq);
  return `${name === '' ? '' : `${name}=`}${encodeURIComponent(value.slice(eq + 1))}`;
}

export function parseCurlCommand(text: string, field: string): RawRequest {
  const words = shellWords(text.trim(), field);
  if (words[0] !== 'curl') throw fieldError('ERR_REQUEST_TEXT', field, 'a curl command must start with curl');
  let url: string | undefined;
  let method: string | undefined;
  let authorization: string | undefined;
  const data: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i] ?? '';
    const value = (): string => {
      const next = words[++i];
      if (next === undefined) throw fieldError('ERR_REQUEST_TEXT', field, `curl option ${word} needs a value`);
      return next;
    };
    if (word === '-X' || word === '--request') method = value();
    else if (word === '-H' || word === '--header') {
      const header = value();
      const colon = header.indexOf(':');
      if (colon > 0 && header.slice(0, colon).trim().toLowerCase() === 'authorization')
        authorization = header.slice(colon + 1).trim();
    } else if (DATA.has(word)) {
      const d = value();
      if (d.startsWith('@') && word !== '--data-raw')
        throw fieldError('ERR_REQUEST_TEXT', field, `curl ${word} @file cannot be read here; paste the body`);
      data.push(d);
    } else if (word === '--data-urlencode') data.push(urlencodeData(value(), field));
    else if (word === '--url') url = value();
    else if (SKIPPED_WITH_VALUE.has(word)) value();
    else if (word.startsWith('-'))
      continue; // -s, -k, -v, -i, --compressed … change nothing signed
    else if (url === undefined) url = word;
    else throw fieldError('ERR_REQUEST_TEXT', field, `the curl command names two URLs (${url.slice(0, 40)} …)`);
  }
  if (url === undefined) throw fieldError('ERR_REQUEST_TEXT', field, 'the curl command has no URL');
  const body = data.join('&');
  return {
    request: { method: method ?? (data.length > 0 ? 'POST' : 'GET'), url, params: decodeForm(body, `${field} body`) },
    authorization,
  };
}
