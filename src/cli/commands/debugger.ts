/**
 * `payconform debugger`: the signature debugger page (docs/debugger.md), served on loopback or written
 * with --out as one self-contained HTML file. --force replaces only a debugger page payconform wrote.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { debuggerPage, isDebuggerPage } from '../../debugger/page-file.ts';
import { DEBUGGER_HOST, serveDebuggerPage } from '../../debugger/serve.ts';
import { fieldError } from '../../errors.ts';
import { str } from '../args.ts';
import type { Command, ExitCode } from '../command.ts';
import { announceListening, cannotListen, LISTENER_OPTIONS } from '../listener-options.ts';
import { writeOutputFiles } from '../output-file.ts';
import { wholeNumber } from '../../whole-number.ts';

function writePage(path: string, force: boolean, page: string): void {
  if (existsSync(path) && statSync(path).isFile() && force && !isDebuggerPage(readFileSync(path, 'utf8')))
    throw fieldError(
      'ERR_USAGE',
      '--out',
      `${path} is not a debugger page payconform wrote; --force replaces only one`,
    );
  writeOutputFiles([{ path, text: page }], { force, field: '--out' });
}

export const debuggerCommand: Command = {
  spec: {
    name: 'debugger',
    summary:
      'The signature debugger page: paste a request, see every step, the verdict and the known mistake; serves ' +
      'it on 127.0.0.1 or writes it as one HTML file.',
    usage: 'payconform debugger [--port N] | --out FILE [--force]',
    options: {
      port: LISTENER_OPTIONS.port,
      out: {
        type: 'string',
        valueName: 'FILE',
        description: 'write the page as one self-contained HTML file that works opened from disk, with no network',
      },
      force: { type: 'boolean', description: 'replace an existing --out file, if it is a debugger page' },
    },
    epilog:
      "The page runs payconform's own signing and diagnosis code in the browser and can send nothing anywhere " +
      "(Content-Security-Policy connect-src 'none'). Served, it listens on 127.0.0.1 only, until SIGINT or SIGTERM.",
  },
  async run({ values }, io): Promise<ExitCode> {
    const out = str(values.out);
    if (out !== undefined && values.port !== undefined)
      throw fieldError('ERR_USAGE', '--port', 'serves the page; --out writes it: give one');
    const page = debuggerPage();
    if (out !== undefined) {
      writePage(out, values.force === true, page);
      io.stderr(`wrote ${out}`);
      return 0;
    }
    const listen = { port: wholeNumber(str(values.port), '--port', 0, 65535) ?? 0, host: DEBUGGER_HOST };
    const server = await serveDebuggerPage(page, listen.port).catch((err: NodeJS.ErrnoException) => {
      throw cannotListen(err, listen);
    });
    announceListening(io, server.url, DEBUGGER_HOST);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.close();
    return 0;
  },
};
