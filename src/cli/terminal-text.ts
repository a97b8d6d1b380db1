/**
 * The terminal's one writer: everything payconform prints goes through `terminalIo`, and text it did not
 * write itself (a gateway's answer, a merchant's fields, a partner's file) is shown, never obeyed. A
 * control character, DEL, a C1 control, a bidi override or isolate and a lone surrogate are printed as
 * escapes (`\x1b`, `\r`, `\u009b`, `\u202e`), so such text cannot set the window title, plant a link,
 * clear the screen, hide a line or move the cursor over payconform's verdict (docs/hostile-content.md).
 */
import type { Io } from './command.ts';

const SHORT: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * The escape of one forbidden code point. C0 as `\xHH`; DEL, C1 and above as `\uHHHH`, JSON's own form, so
 * JSON printed through the terminal stays JSON and means the same (JSON.stringify already escapes C0).
 */
function visible(c: string): string {
  const code = c.charCodeAt(0);
  return (
    SHORT[c] ?? (code < 0x20 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
  );
}

// Lone surrogates: a high one not followed by a low one, a low one not preceded by a high one.
const LONE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const CONTROLS = '\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069';
/** Everything but the line break: what no text may carry to the terminal. */
const IN_TEXT = new RegExp(`[${CONTROLS}]|${LONE}`, 'g');
/** A line shows its line breaks too. */
const IN_LINE = new RegExp(`[\\n${CONTROLS}]|${LONE}`, 'g');
/** A value shows its backslashes too, so that what is shown reads back to exactly the value. */
const IN_VALUE = new RegExp(`[\\\\\\n${CONTROLS}]|${LONE}`, 'g');

/** An untrusted value inside a line of payconform's: on one line, every forbidden code point and `\` escaped. */
export function shown(value: string): string {
  return value.replace(IN_VALUE, visible);
}

/**
 * An untrusted block of lines (a gateway's answer body): each line shown as a value behind `prefix`, so no
 * line of it can pass for one of payconform's. JSON text passes `oneLine`: its own escapes stay readable.
 */
export function shownBlock(text: string, prefix: string, show: (line: string) => string = shown): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${show(line)}`)
    .join('\n');
}

/**
 * A line made below the CLI (a console line of inspect, a cause, a log line) that may hold untrusted values:
 * kept on one line, every forbidden code point escaped. Backslashes stay, as payconform wrote them.
 */
export function oneLine(line: string): string {
  return line.replace(IN_LINE, visible);
}

/** The terminal itself: whatever reaches it has no forbidden code point left; line breaks stay. */
export function terminalIo(io: Io): Io {
  return {
    stdout: (text) => io.stdout(text.replace(IN_TEXT, visible)),
    stderr: (text) => io.stderr(text.replace(IN_TEXT, visible)),
    env: io.env,
  };
}
