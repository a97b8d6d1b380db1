/**
 * How `payconform mock` and `payconform inspect` hand out the admin route's token (docs/mock.md, "The admin
 * route"): printed once on stderr at start, and written to --admin-token-file (mode 0600) for scripts, before
 * "listening on" is printed, so a script that waits for that line finds the file whole.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { fieldError } from '../errors.ts';
import type { Io } from './command.ts';

export const ADMIN_TOKEN_FILE_OPTION = {
  type: 'string',
  valueName: 'FILE',
  description:
    "write the run's admin token (payconform trigger, /_payconform/ routes) to FILE, readable by you alone (0600)",
} as const;

/** Says the token once, and writes it to the file when one is given. */
export function announceAdminToken(io: Io, token: string, file: string | undefined): void {
  if (file !== undefined) {
    try {
      writeFileSync(file, `${token}\n`, { mode: 0o600 });
      chmodSync(file, 0o600); // a file that was there keeps its mode through writeFileSync
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      throw fieldError('ERR_USAGE', '--admin-token-file', `cannot write ${file} (${code})`, err);
    }
  }
  io.stderr(`admin token: ${token} (for payconform trigger and /_payconform/ on loopback; docs/mock.md)`);
}
