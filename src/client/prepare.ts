/**
 * A request that a gateway will accept: the schema's sample fields plus, where the operation acts on
 * an earlier result (catalogue PREREQUISITES), the id of one made just now through the same client.
 */
import { endpointByOperation, PREREQUISITES } from '../catalogue/index.ts';
import { PayconformError } from '../errors.ts';
import { sampleRequest } from '../schemas/index.ts';
import type { Pair } from '../signing/form-body.ts';
import type { PayClient } from './client.ts';

export async function prepareRequest(client: PayClient, operation: string, overrides: readonly Pair[] = []): Promise<Pair[]> {
  const endpoint = endpointByOperation(operation);
  const prerequisite = PREREQUISITES[operation];
  if (prerequisite === undefined || overrides.some(([name]) => name === prerequisite.field)) return sampleRequest(endpoint, overrides);
  const earlier = await client.send(prerequisite.operation, await prepareRequest(client, prerequisite.operation, prerequisite.with ?? []), { unsigned: endpointByOperation(prerequisite.operation).auth.kind === 'unstated' });
  const id = (earlier.body as Record<string, unknown> | undefined)?.[prerequisite.answer];
  if (earlier.status !== 200 || typeof id !== 'string') {
    throw new PayconformError('ERR_IO', `${operation} needs a ${prerequisite.field} from ${prerequisite.operation}, which answered ${earlier.status}: ${JSON.stringify(earlier.body).slice(0, 200)}`);
  }
  return sampleRequest(endpoint, [[prerequisite.field, id], ...overrides]);
}
