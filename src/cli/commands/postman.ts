/**
 * `payconform postman`: the Postman collection v2.1 of the API with its signing script, generated from the catalogue
 * (docs/postman.md).
 */
import { postmanText } from '../../interop/postman.ts';
import type { Command } from '../command.ts';
import { DOCUMENT_OUT_OPTIONS, emitDocument } from '../output-file.ts';

export const postmanCommand: Command = {
  spec: {
    name: 'postman',
    summary:
      'Prints (or writes) a Postman collection of every endpoint, in prerequisite order, whose pre-request script ' +
      'signs each request (control, OAuth HMAC-SHA1).',
    usage: 'payconform postman [--out FILE] [--force]',
    options: DOCUMENT_OUT_OPTIONS,
    epilog:
      'Run it with newman: newman run FILE --env-var baseUrl=URL --env-var login=LOGIN --env-var endpointId=N ' +
      '--env-var controlKey=KEY. RSA-SHA256 requests are skipped unless an Authorization header is pasted in. ' +
      'docs/postman.md says more.',
  },
  run({ values }, io) {
    return emitDocument(postmanText(), values, io);
  },
};
