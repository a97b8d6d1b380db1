/**
 * Steps that send requests. Each names an operation of the catalogue; what a valid request of it
 * holds comes from the request schemas and the catalogue's prerequisites, never from the step.
 * Card numbers are named by their role ("declined"), so no full card number is written in a feature.
 */
import type { DataTable } from '@cucumber/cucumber';
import { endpointByOperation } from '../src/catalogue/index.ts';
import { getParam, parseAuthorizationHeader, buildAuthorizationHeader } from '../src/signing/authorization-header.ts';
import { controlWithMistake, oauthHeaderWithMistake } from '../src/signing/diagnose/apply.ts';
import type { SentRequest } from '../src/client/client.ts';
import type { Pair } from '../src/signing/form-body.ts';
import type { Credentials } from '../src/signing/request.ts';
import { When } from './support/verdict.ts';
import type { PayWorld } from './support/world.ts';

/** The OAuth signature method an endpoint requires. */
const methodOf = (operation: string): 'HMAC-SHA1' | 'RSA-SHA256' =>
  endpointByOperation(operation).auth.kind === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256';

/** An Authorization header for a built request, made with `mistake` ('none': correct) and a fresh nonce. */
function headerFor(
  world: PayWorld,
  request: SentRequest,
  method: 'HMAC-SHA1' | 'RSA-SHA256',
  mistake = 'none',
  credentials: Credentials = world.target.credentials,
): string | undefined {
  return oauthHeaderWithMistake(mistake, {
    request: { method: 'POST', url: request.url, params: request.params },
    credentials,
    method,
    nonce: world.freshOrderId(),
    timestamp: String(Math.floor(Date.now() / 1000)),
  });
}

const rows = (world: PayWorld, table: DataTable): Pair[] =>
  table
    .raw()
    .filter(([name]) => name !== 'field')
    .map(([name = '', value = '']): Pair => [
      name,
      value.startsWith('the ') && value.endsWith(' test card') ? world.card(value.slice(4, -10)) : value,
    ]);

When('I send a signed {string} request', async function (this: PayWorld, operation: string) {
  await this.sendSigned(operation, await this.requestFor(operation));
});

When('I send a signed {string} request with:', async function (this: PayWorld, operation: string, table: DataTable) {
  await this.sendSigned(operation, await this.requestFor(operation, rows(this, table)));
});

When(
  'I send a signed {string} request paid with the {string} test card',
  async function (this: PayWorld, operation: string, card: string) {
    await this.sendSigned(operation, await this.requestFor(operation, [['credit_card_number', this.card(card)]]));
  },
);

When(
  'I send a signed {string} request with {string} set to {string}',
  async function (this: PayWorld, operation: string, field: string, value: string) {
    await this.sendSigned(operation, await this.requestFor(operation, [[field, value]]));
  },
);

/** Left out before signing; where the signature covers the field (it cannot be computed without it), after. */
When(
  'I send a signed {string} request without the {string} field',
  async function (this: PayWorld, operation: string, field: string) {
    const full = await this.requestFor(operation);
    const signedFields = endpointByOperation(operation).auth;
    if (signedFields.kind === 'control' && signedFields.fields.some((f) => f.name === field)) {
      const built = this.build(operation, full);
      const params = built.params.filter(([name]) => name !== field);
      await this.send(operation, this.build(operation, params, { unsigned: true }));
      return;
    }
    await this.sendSigned(
      operation,
      full.filter(([name]) => name !== field),
    );
  },
);

When('I send an unsigned {string} request', async function (this: PayWorld, operation: string) {
  await this.send(operation, this.build(operation, await this.requestFor(operation), { unsigned: true }));
});

When('I send a signed {string} request without the Accept header', async function (this: PayWorld, operation: string) {
  await this.sendSigned(operation, await this.requestFor(operation), { headers: { accept: null } });
});

When(
  'I send a signed {string} request with the Accept header {string}',
  async function (this: PayWorld, operation: string, accept: string) {
    await this.sendSigned(operation, await this.requestFor(operation), { headers: { accept } });
  },
);

When(
  'I send a signed {string} request with the Content-Type {string}',
  async function (this: PayWorld, operation: string, contentType: string) {
    await this.sendSigned(operation, await this.requestFor(operation), { headers: { 'content-type': contentType } });
  },
);

/** Control: one formula field changed after signing. OAuth: the signature's bytes XOR 0x5A, still valid Base64. */
When('I send a {string} request whose signature is corrupted', async function (this: PayWorld, operation: string) {
  const endpoint = endpointByOperation(operation);
  const request = this.build(operation, await this.requestFor(operation));
  if (endpoint.auth.kind === 'control') {
    const field = endpoint.auth.fields.find((f) => f.from === 'params')!.name;
    const params = request.params.map(([n, v]): Pair => [n, n === field ? `${v}1` : v]);
    await this.send(operation, this.build(operation, params, { unsigned: true }));
    return;
  }
  const header = parseAuthorizationHeader(request.headers.authorization!);
  const flipped = header.pairs.map(([n, v]): Pair => [
    n,
    n === 'oauth_signature' ? Buffer.from(Buffer.from(v, 'base64').map((b) => b ^ 0x5a)).toString('base64') : v,
  ]);
  await this.send(operation, {
    ...request,
    headers: { ...request.headers, authorization: buildAuthorizationHeader(flipped, header.realm) },
  });
});

/** A canonicalisation mistake of the diagnose catalogue (docs/diagnoses.md), made on purpose. */
When(
  'I send a {string} request signed with the {string} mistake',
  async function (this: PayWorld, operation: string, mistake: string) {
    const endpoint = endpointByOperation(operation);
    const request = this.build(operation, await this.requestFor(operation), { unsigned: true });
    const input = { method: 'POST', url: request.url, params: request.params };
    if (endpoint.auth.kind === 'control') {
      const control = controlWithMistake(mistake, operation, this.target.endpointId, input, this.target.credentials);
      if (control === undefined) throw new Error(`the ${mistake} mistake cannot be made on ${operation}`);
      await this.send(operation, this.build(operation, [...request.params, ['control', control]], { unsigned: true }));
      return;
    }
    const header = headerFor(this, request, methodOf(operation), mistake);
    if (header === undefined) throw new Error(`the ${mistake} mistake cannot be made on ${operation}`);
    await this.send(operation, { ...request, headers: { ...request.headers, authorization: header } });
  },
);

/** HMAC-SHA1 where RSA-SHA256 is required, or the reverse: otherwise a correct signature. */
When(
  'I send a {string} request signed with {string}',
  async function (this: PayWorld, operation: string, method: 'HMAC-SHA1' | 'RSA-SHA256') {
    const request = this.build(operation, await this.requestFor(operation), { unsigned: true });
    await this.send(operation, {
      ...request,
      headers: { ...request.headers, authorization: headerFor(this, request, method)! },
    });
  },
);

When(
  'I send a signed {string} request with an oauth_timestamp {int} seconds old',
  async function (this: PayWorld, operation: string, age: number) {
    await this.sendSigned(operation, await this.requestFor(operation), {
      timestamp: String(Math.floor(Date.now() / 1000) - age),
    });
  },
);

When(
  'I send a signed {string} request with realm {string}',
  async function (this: PayWorld, operation: string, realm: string) {
    await this.sendSigned(operation, await this.requestFor(operation), { realm });
  },
);

When('I send the same request again', async function (this: PayWorld) {
  await this.send(this.last.operation, this.last.request);
});

When(
  'I send a {string} request signed with the consumer key {string}',
  async function (this: PayWorld, operation: string, login: string) {
    const built = this.build(operation, await this.requestFor(operation), { unsigned: true });
    const header = headerFor(this, built, methodOf(operation), 'none', { ...this.target.credentials, login });
    await this.send(operation, { ...built, headers: { ...built.headers, authorization: header! } });
  },
);

/** Signed correctly, then the oauth_* parameters moved from the header into the form body. */
When(
  'I send a signed {string} request with its oauth_* parameters only in the body',
  async function (this: PayWorld, operation: string) {
    const request = this.build(operation, await this.requestFor(operation));
    const oauth = parseAuthorizationHeader(request.headers.authorization!).pairs;
    const params: Pair[] = [...request.params, ...oauth];
    const headers = { ...request.headers };
    delete headers.authorization;
    await this.send(operation, {
      ...request,
      headers,
      params,
      body: this.build(operation, params, { unsigned: true }).body,
    });
  },
);

/** The spec's HMAC example: oauth_* in the header and repeated, identical, in the body. */
When(
  'I send a signed {string} request with its oauth_* parameters repeated in the body',
  async function (this: PayWorld, operation: string) {
    const nonce = this.freshOrderId();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const method = methodOf(operation);
    const repeated: Pair[] = [
      ['oauth_consumer_key', this.target.credentials.login!],
      ['oauth_nonce', nonce],
      ['oauth_signature_method', method],
      ['oauth_timestamp', timestamp],
      ['oauth_version', '1.0'],
    ];
    const params = [...(await this.requestFor(operation)), ...repeated];
    const sent = await this.sendSigned(operation, params, { nonce, timestamp });
    if (getParam(parseAuthorizationHeader(sent.request.headers.authorization!), 'oauth_nonce') !== nonce)
      throw new Error('the header and the body disagree');
  },
);
