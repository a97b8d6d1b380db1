/**
 * The Gherkin every catalogue row must have (issue 6): a signed request accepted and followed to a
 * final state, and refusals for a missing or wrong Accept, a missing or wrong signature and a
 * missing mandatory field. Written from the catalogue so no row is forgotten; the text is for a
 * certifier who has never seen the code. The spec requires the Accept header, the form body and the
 * signature, so those refusals are spec scenarios (their error code step is an assumption, A-21); a
 * field outside the control formula is mandatory only by our field lists, so that one rests on A-25.
 */
import { OP, PREREQUISITES, type Endpoint } from '../catalogue/index.ts';
import { REQUIRED_FIELDS, requestSchemaOf } from '../schemas/index.ts';

/** The kinds of scenario every row must have, as the tag that marks each. */
export const REQUIRED_KINDS = [
  '@positive',
  '@negative:accept-missing',
  '@negative:accept-wrong',
  '@negative:signature-missing',
  '@negative:signature-wrong',
  '@negative:field-missing',
] as const;

export const slug = (endpoint: Endpoint): string =>
  endpoint.path
    .split('/')
    .slice(2, -1)
    .join('-')
    .replace(/^3ds-v1-/, '3ds-');

export function endpointFeaturePath(endpoint: Endpoint): string {
  return `features/${endpoint.featureArea}/${slug(endpoint)}.feature`;
}

/** Kinds a row cannot have: an endpoint whose scheme the spec leaves unstated has no signature to get wrong. */
export function requiredKinds(endpoint: Endpoint): readonly string[] {
  return endpoint.auth.kind === 'unstated' ? REQUIRED_KINDS.filter((k) => !k.includes('signature')) : REQUIRED_KINDS;
}

/** A mandatory field the signature does not cover, so its absence is a field error, not a signature one. */
function unsignedMandatoryField(endpoint: Endpoint): string {
  const schema = requestSchemaOf(endpoint);
  const required = REQUIRED_FIELDS[schema] ?? [];
  const signed = new Set(endpoint.auth.kind === 'control' ? endpoint.auth.fields.map((f) => f.name) : []);
  const prerequisite = PREREQUISITES[endpoint.operation]?.field;
  const field =
    required.find((f) => !signed.has(f) && f !== prerequisite) ??
    required.find((f) => f !== prerequisite) ??
    required[0];
  // Every request schema lists its mandatory fields (test/schemas holds REQUIRED_FIELDS to the catalogue).
  if (field === undefined) throw new Error(`internal: ${schema} has no mandatory field in REQUIRED_FIELDS`);
  return field;
}

const schemeText = (endpoint: Endpoint): string =>
  endpoint.auth.kind === 'control' && endpoint.auth.fromPublicPage !== undefined
    ? `${SCHEME_TEXT.control}; the spec states none, the formula is the family's public page's ` +
      `(docs/assumptions.md A-12)`
    : SCHEME_TEXT[endpoint.auth.kind];

const SCHEME_TEXT: Record<Endpoint['auth']['kind'], string> = {
  control: 'a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last)',
  'oauth-hmac-sha1': 'OAuth 1.0a with HMAC-SHA1 (key: the control key and "&")',
  'oauth-rsa-sha256': "OAuth 1.0a with RSA-SHA256 (the merchant's registered key)",
  unstated: 'nothing: the spec states no authentication for it (docs/assumptions.md A-12, A-24)',
};

/** Tags of a signature refusal: an assumption's (A-12) where the formula is the public page's, not the spec's. */
function signatureBasis(endpoint: Endpoint): string[] {
  return endpoint.auth.kind === 'control' && endpoint.auth.fromPublicPage !== undefined
    ? ['@spec:authentication', '@assumption', '@A-12']
    : ['@spec:authentication'];
}

export function endpointFeatureText(endpoint: Endpoint): string {
  const op = endpoint.operation;
  const tags = (...more: string[]): string => ['@endpoint:' + op, '@scheme:' + endpoint.auth.kind, ...more].join(' ');
  const money = endpoint.movesMoney ? ' @money' : '';
  const signed = endpoint.auth.kind === 'unstated' ? 'n unsigned' : ' signed';
  const prerequisite = PREREQUISITES[op];
  const form = endpoint.responseSchema === 'AsyncCheckoutFormRedirect';
  const schema = endpoint.responseSchema ?? 'AsyncResponse (assumed: the spec shows none)';
  const sendStep =
    endpoint.auth.kind === 'unstated'
      ? `When I send an unsigned "${op}" request`
      : `When I send a signed "${op}" request`;
  const missingSignatureCode = endpoint.auth.kind === 'control' ? 'CONTROL_MISSING' : 'AUTH_HEADER_MISSING';
  const wrongSignatureCode = endpoint.auth.kind === 'control' ? 'CONTROL_INVALID' : 'SIGNATURE_INVALID';
  const field = unsignedMandatoryField(endpoint);
  // What the answer is for: an order to follow, or (status, get-card-info's own answer) a field to read.
  const answerField =
    op === OP.STATUS ? 'status' : op === OP.CARDINFO ? 'last-four-digits' : form ? 'redirect-url' : undefined;
  const positiveThen =
    answerField === undefined
      ? ['Then the gateway accepts it', 'And the order reaches a final status']
      : ['Then the gateway accepts it', `And the answer carries a "${answerField}"`];
  const lines = [
    `# Generated from the endpoint catalogue by \`npm run features\`; edit scripts or flows, not this file.`,
    `@area:${endpoint.featureArea}`,
    `Feature: ${op} — POST ${endpoint.path}`,
    `  The ${op} endpoint takes a ${requestSchemaOf(endpoint)} form body, signed with ${schemeText(endpoint)},`,
    `  and answers ${schema} as application/vnd.pay+json.${
      prerequisite
        ? `\n  It acts on the ${prerequisite.field} of a ${prerequisite.operation}, which each scenario creates first.`
        : ''
    }`,
    '',
    `  ${tags('@positive', '@spec:endpoints') + money}`,
    `  Scenario: a${signed} ${op} request is ` +
      `accepted${answerField === undefined ? ' and its order reaches a final status' : ''}`,
    `    ${sendStep}`,
    ...positiveThen.map((s) => `    ${s}`),
    '',
    `  ${tags('@negative:accept-missing', '@spec:common-headers')}`,
    `  Scenario: ${op} without the Accept header is refused`,
    `    When I send a signed "${op}" request without the Accept header`,
    `    Then the gateway refuses it`,
    `    And the error code is "NOT_ACCEPTABLE"`,
    '',
    `  ${tags('@negative:accept-wrong', '@spec:common-headers')}`,
    `  Scenario: ${op} with Accept: application/json is refused`,
    `    When I send a signed "${op}" request with the Accept header "application/json"`,
    `    Then the gateway refuses it`,
    `    And the error code is "NOT_ACCEPTABLE"`,
  ];
  if (endpoint.auth.kind !== 'unstated') {
    lines.push(
      '',
      `  ${tags('@negative:signature-missing', ...signatureBasis(endpoint))}`,
      `  Scenario: ${op} without ` +
        `its ${endpoint.auth.kind === 'control' ? 'control field' : 'Authorization header'} is refused`,
      `    When I send an unsigned "${op}" request`,
      `    Then the gateway refuses it`,
      `    And the error code is "${missingSignatureCode}"`,
      '',
      `  ${tags('@negative:signature-wrong', ...signatureBasis(endpoint))}`,
      `  Scenario: ${op} with a wrong ${
        endpoint.auth.kind === 'control'
          ? 'control value (a formula field changed after signing)'
          : 'signature (its bytes XOR-ed with 0x5A, still valid Base64)'
      } is refused`,
      `    When I send a "${op}" request whose signature is corrupted`,
      `    Then the gateway refuses it`,
      `    And the error code is "${wrongSignatureCode}"`,
    );
  }
  lines.push(
    '',
    `  ${tags('@negative:field-missing', '@spec:named-schemas', '@assumption', '@A-25')}`,
    `  Scenario: ${op} without its mandatory "${field}" field is refused`,
    `    When I send a signed "${op}" request without the "${field}" field`,
    `    Then the gateway refuses it`,
    `    And the error names the field "${field}"`,
    '',
  );
  return lines.join('\n');
}
