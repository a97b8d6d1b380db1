/** `payconform openapi`: the OpenAPI 3.1 document of the API, generated from the catalogue (docs/openapi.md). */
import { openApiText } from '../../interop/openapi.ts';
import type { Command } from '../command.ts';
import { DOCUMENT_OUT_OPTIONS, emitDocument } from '../output-file.ts';

export const openapiCommand: Command = {
  spec: {
    name: 'openapi',
    summary:
      'Prints (or writes) the OpenAPI 3.1 document of every endpoint, generated from the catalogue, with the ' +
      'control and OAuth rules as extensions.',
    usage: 'payconform openapi [--out FILE] [--force]',
    options: DOCUMENT_OUT_OPTIONS,
    epilog:
      'No tool computes the control or the OAuth signature from it: `payconform sign` does. docs/openapi.md says ' +
      'what it holds.',
  },
  run({ values }, io) {
    return emitDocument(openApiText(), values, io);
  },
};
