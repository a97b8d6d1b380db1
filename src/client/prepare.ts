/**
 * A request that a gateway will accept: the schema's sample fields plus, where the operation acts on
 * an earlier result (catalogue PREREQUISITES), the id of one made just now through the same client.
 */
import { endpointByOperation, PREREQUISITES, type Operation } from '../catalogue/index.ts';
import { PrerequisiteRefused } from '../report/prerequisite-refusal.ts';
import { redactEchoes } from '../report/redact.ts';
import { sampleRequest } from '../schemas/index.ts';
import type { Pair } from '../signing/form-body.ts';
import { answerText, errorCodeOf } from './answer-field.ts';
import type { PayClient } from './client.ts';

/** A sample value as a gateway wants it instead (a profile's test card or amount); the schema's example otherwise. */
export type SampleValue = (name: string, example: string) => string;

/**
 * `orderId`, when given, makes each request's client_orderid (client-order-id on v4 and 3-D Secure)
 * unique, as a real gateway expects; otherwise the schema's example is used. A `login` field is the
 * credentials' login. `sample` replaces the other examples the caller did not set, here and in the
 * prerequisites made on the way.
 */
export async function prepareRequest(
  client: PayClient,
  operation: Operation,
  overrides: readonly Pair[] = [],
  orderId?: () => string,
  sample: SampleValue = (_, example) => example,
): Promise<Pair[]> {
  const endpoint = endpointByOperation(operation);
  const prerequisite = PREREQUISITES[operation];
  const given = (name: string): boolean => overrides.some(([n]) => n === name) || name === prerequisite?.field;
  // The login field is the merchant's own, the one the control formula takes, never the schema's example.
  const { login } = client.options.credentials;
  const fresh = (pairs: Pair[]): Pair[] =>
    pairs.map(([name, value]) => [
      name,
      given(name)
        ? value
        : orderId !== undefined && (name === 'client_orderid' || name === 'client-order-id')
          ? orderId()
          : name === 'login' && login !== undefined
            ? login
            : sample(name, value),
    ]);
  if (prerequisite === null || overrides.some(([name]) => name === prerequisite.field))
    return fresh(sampleRequest(endpoint, overrides));
  const earlier = await client.send(
    prerequisite.operation,
    await prepareRequest(client, prerequisite.operation, prerequisite.with ?? [], orderId, sample),
    { unsigned: endpointByOperation(prerequisite.operation).auth.kind === 'unstated' },
  );
  const id = answerText(
    (earlier.body as Record<string, unknown> | undefined)?.[
      client.options.answerFields?.[prerequisite.answer] ?? prerequisite.answer
    ],
  );
  if (earlier.status !== 200 || id === undefined) {
    const answer = redactEchoes(JSON.stringify(earlier.body), earlier.request.params, [
      client.options.credentials.controlKey,
    ]).slice(0, 200);
    const errorCode = errorCodeOf(earlier.body, client.options.answerFields?.['error-code'] ?? 'error-code');
    throw new PrerequisiteRefused(
      operation,
      prerequisite.field,
      { operation: prerequisite.operation, status: earlier.status, ...(errorCode === undefined ? {} : { errorCode }) },
      answer,
    );
  }
  return fresh(sampleRequest(endpoint, [[prerequisite.field, id], ...overrides]));
}
