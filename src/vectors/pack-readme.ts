/**
 * The README of one operation in a partner pack: the request of each vector and every intermediate value
 * of its signature. Apart from pack.ts (which writes folders) so the debugger page can show it too.
 */
import { endpointByOperation } from '../catalogue/index.ts';
import { formulaText } from '../signing/control.ts';
import { explanationText } from '../signing/explain.ts';
import { explainVector } from './compute.ts';
import type { Vector } from './types.ts';

const fence = (text: string, lang = 'text'): string => `\`\`\`${lang}\n${text}\n\`\`\``;

export function operationReadme(operation: string, vectors: Vector[], banner: string[]): string {
  const endpoint = endpointByOperation(operation);
  const auth = endpoint.auth.kind === 'control' ? `control = ${formulaText(endpoint.auth.fields)}` : endpoint.auth.kind;
  const lines = [
    ...banner,
    `# ${operation}: signature vectors`,
    '',
    `\`POST ${endpoint.path}\`, signed ` + `with ${auth}.`,
    '',
    'Each vector below gives the request as sent and every intermediate value of its signature. The same vectors ' +
      'are in `../vectors.json`.',
    '',
  ];
  for (const v of vectors) {
    lines.push(
      `## ${v.id}`,
      '',
      v.description ?? '',
      '',
      `- URL: \`${v.request.url}\``,
      '- form parameters, in send order:',
      '',
    );
    lines.push('| name | value |', '|---|---|', ...v.request.params.map(([n, val]) => `| \`${n}\` | \`${val}\` |`), '');
    if (v.oauth)
      lines.push(
        `- oauth_nonce \`${v.oauth.nonce}\`, oauth_timestamp ` +
          `\`${v.oauth.timestamp}\`${v.oauth.realm ? `, realm \`${v.oauth.realm}\`` : ''}`,
        '',
      );
    lines.push('Step by step:', '', fence(explanationText(explainVector(v))), '');
  }
  return lines.join('\n');
}
