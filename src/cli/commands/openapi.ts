/** `payconform openapi`: the OpenAPI 3.1 document of the API, generated from the catalogue (docs/openapi.md). */
import { openApiText } from '../../interop/openapi.ts';
import { str } from '../args.ts';
import type { Command } from '../command.ts';
import { writeOutputFiles } from '../output-file.ts';

export const openapiCommand: Command = {
  spec: {
    name: 'openapi',
    summary: 'Prints (or writes) the OpenAPI 3.1 document of every endpoint, generated from the catalogue, with the control and OAuth rules as extensions.',
    usage: 'payconform openapi [--out FILE] [--force]',
    options: {
      out: { type: 'string', valueName: 'FILE', description: 'write the document to FILE instead of printing it' },
      force: { type: 'boolean', description: 'replace FILE if it exists' },
    },
    epilog: 'No tool computes the control or the OAuth signature from it: `payconform sign` does. docs/openapi.md says what it holds.',
  },
  run({ values }, io) {
    const text = openApiText();
    const out = str(values.out);
    if (out === undefined) {
      io.stdout(text);
      return 0;
    }
    writeOutputFiles([{ path: out, text }], { force: values.force === true, field: '--out' });
    io.stdout(`wrote ${out}`);
    return 0;
  },
};
