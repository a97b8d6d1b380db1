/** `payconform catalogue`: the endpoint table every other command reads. */
import { ENDPOINTS } from '../../catalogue/index.ts';
import { formulaText } from '../../signing/control.ts';
import type { Command } from '../command.ts';

export const catalogueCommand: Command = {
  spec: {
    name: 'catalogue',
    summary: 'Lists every endpoint of the spec: operation, path, auth scheme (with the control formula), schemas.',
    usage: 'payconform catalogue [--json]',
    options: { json: { type: 'boolean', description: 'print the table as JSON' } },
  },
  run({ values }, io) {
    if (values.json) {
      // The spec's facts of each row, as the table shows them; not how the mock and the features use it.
      const specFacts = ENDPOINTS.map(
        ({ checkedRequestSchema, mockBehaviour, featureArea, movesMoney, ...facts }) => facts,
      );
      io.stdout(JSON.stringify(specFacts, null, 2));
      return 0;
    }
    const rows = ENDPOINTS.map((e): [string, string, string, string] => [
      e.operation,
      e.path,
      e.auth.kind === 'control' ? `control ${formulaText(e.auth.fields)}` : e.auth.kind,
      `${e.requestSchema ?? '(not shown)'} ` +
        `→ ${e.responseSchema ?? '(not shown)'}${e.endpointGroup.accepted ? ', endpoint group ok' : ''}`,
    ]);
    const width = (column: 0 | 1): number => Math.max(...rows.map((r) => r[column].length)) + 2;
    const [operationWidth, pathWidth] = [width(0), width(1)];
    io.stdout(
      rows
        .map(
          ([operation, path, auth, schemas]) =>
            `${operation.padEnd(operationWidth)}${path.padEnd(pathWidth)}${auth}\n` +
            `${' '.repeat(operationWidth + pathWidth)}${schemas}`,
        )
        .join('\n'),
    );
    return 0;
  },
};
