/**
 * A request that a gateway will accept: the schema's sample fields plus, where the operation acts on
 * an earlier result (catalogue PREREQUISITES), the id of one made just now through the same client.
 */
import { endpointByOperation, PREREQUISITES, type Operation } from '../catalogue/index.ts';
import { PayconformError } from '../errors.ts';
import { redactEchoes } from '../report/redact.ts';
import { sampleRequest } from '../schemas/index.ts';
import type { Pair } from '../signing/form-body.ts';
import type { PayClient } from './client.ts';

/**
 * `orderId`, when given, makes each request's client_orderid (client-order-id on v4 and 3-D Secure)
 * unique, as a real gateway expects; otherwise the schema's example is used.
 */
export async function prepareRequest(client: PayClient, operation: Operation, overrides: readonly Pair[] = [], orderId?: () => string): Promise<Pair[]> {
  const endpoint = endpointByOperation(operation);
  const prerequisite = PREREQUISITES[operation];
  const fresh = (pairs: Pair[]): Pair[] => orderId === undefined ? pairs
    : pairs.map(([name, value]) => [name, (name === 'client_orderid' || name === 'client-order-id') && !overrides.some(([n]) => n === name) ? orderId() : value]);
  if (prerequisite === null || overrides.some(([name]) => name === prerequisite.field)) return fresh(sampleRequest(endpoint, overrides));
  const earlier = await client.send(prerequisite.operation, await prepareRequest(client, prerequisite.operation, prerequisite.with ?? [], orderId), { unsigned: endpointByOperation(prerequisite.operation).auth.kind === 'unstated' });
  const id = (earlier.body as Record<string, unknown> | undefined)?.[prerequisite.answer];
  if (earlier.status !== 200 || typeof id !== 'string') {
    const answer = redactEchoes(JSON.stringify(earlier.body), earlier.request.params, [client.options.credentials.controlKey]).slice(0, 200);
    throw new PayconformError('ERR_IO', `${operation} needs a ${prerequisite.field} from ${prerequisite.operation}, which answered ${earlier.status}: ${answer}`);
  }
  return fresh(sampleRequest(endpoint, [[prerequisite.field, id], ...overrides]));
}
