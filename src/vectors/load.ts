/**
 * Reading a vector file: JSON, then the JSON Schema (vectors/schema.json, with ajv), then the rules a
 * schema cannot say (unique ids, schemes that agree with the catalogue, usable keys). Every problem
 * becomes a `file: /json/pointer: message` line; nothing is used until the whole file passes.
 */
import { packageFile } from '../package-root.ts';
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { endpointByOperation, findPath } from '../catalogue/index.ts';
import { PayconformError, isPayconformError } from '../errors.ts';
import { present } from '../present.ts';
import { readUserFile } from '../read-file.ts';
import { loadPrivateKey, loadPublicKey } from '../signing/keys.ts';
import { normalizeUrl } from '../signing/normalize-url.ts';
import { fillPlaceholders, type Secrets } from './placeholders.ts';
import { VECTOR_FORMAT, type Vector, type VectorFile } from './types.ts';

export const SCHEMA_PATH = packageFile('vectors/schema.json');
const MAX_LINES = 20;

export class VectorFileError extends PayconformError {
  readonly lines: string[];
  constructor(file: string, problems: string[]) {
    const lines = problems.slice(0, MAX_LINES).map((p) => `${file}: ${p}`);
    if (problems.length > MAX_LINES) lines.push(`${file}: … and ${problems.length - MAX_LINES} more problems`);
    super('ERR_VECTOR_INVALID', lines.join('\n'), { field: file, rule: 'valid payconform-vectors/1 file' });
    this.name = 'VectorFileError';
    this.lines = lines;
  }
}

/** The format's JSON Schema (UTF-8, Buffer#toString's default), read once. */
let formatSchema: { $id: string } | undefined;
const readFormatSchema = (): { $id: string } =>
  (formatSchema ??= JSON.parse(readFileSync(SCHEMA_PATH).toString()) as { $id: string });

// A test holds vectors/schema.json to ajv's strict mode; here it is compiled with the defaults.
let validator: ValidateFunction | undefined;
function schemaValidator(): ValidateFunction {
  validator ??= new Ajv({ allErrors: true }).compile(readFormatSchema());
  return validator;
}

function schemaProblem(e: ErrorObject): string {
  const where = e.instancePath || '/';
  if (e.keyword === 'additionalProperties')
    return `${where}: unknown property ` + `"${(e.params as { additionalProperty: string }).additionalProperty}"`;
  return `${where}: ${e.message}`; // ajv gives every error a message unless told not to
}

/** Parses and validates the text of a vector file; throws VectorFileError with every problem found. */
export function parseVectorFile(text: string, file: string, secrets: Secrets = {}): VectorFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new VectorFileError(file, [`not JSON (${(err as Error).message.split('\n')[0]})`]);
  }
  const unfilled = fillPlaceholders(data, secrets);
  if (unfilled.length) throw new VectorFileError(file, unfilled);
  const validate = schemaValidator();
  if (!validate(data)) {
    // An unknown format makes every other message noise: say that one alone.
    const format = (data as { format?: unknown } | null)?.format;
    // Only for an object: for anything else (an array too) the schema's "must be object" says more.
    if (typeof data === 'object' && data !== null && !Array.isArray(data) && format !== VECTOR_FORMAT) {
      throw new VectorFileError(file, [
        `/format: must be "${VECTOR_FORMAT}" ` + `(got ${JSON.stringify(format) ?? 'nothing'})`,
      ]);
    }
    throw new VectorFileError(
      file,
      present(validate.errors, 'the schema errors')
        .filter((e) => e.keyword !== 'if')
        .map(schemaProblem),
    );
  }
  const vectorFile = data as VectorFile;
  const problems = vectorFile.vectors.flatMap((v, i) => vectorProblems(v, `/vectors/${i}`));
  const firstAt = new Map<string, number>();
  vectorFile.vectors.forEach((v, i) => {
    const first = firstAt.get(v.id);
    if (first === undefined) firstAt.set(v.id, i);
    else problems.push(`/vectors/${i}/id: duplicate id "${v.id}" (first at /vectors/${first})`);
  });
  if (problems.length) throw new VectorFileError(file, problems);
  return vectorFile;
}

/** True for the format's own JSON Schema (vectors/schema.json), which sits beside the vector files. */
export function isFormatSchema(text: string): boolean {
  try {
    return (JSON.parse(text) as { $id?: unknown }).$id === readFormatSchema().$id;
  } catch {
    return false;
  }
}

/** The text of a vector file; one that cannot be read (missing, a folder, no permission) is a VectorFileError. */
export function readVectorText(file: string): string {
  try {
    return readUserFile(file, file);
  } catch (err) {
    const e = err as PayconformError;
    // A binary file says what it is, not only the rule it broke.
    const rule =
      e.code === 'ERR_ENCODING'
        ? `is not UTF-8 text ` + `(${/first at byte \d+/.exec(e.message)?.[0] ?? 'bad bytes'})`
        : (e.rule ?? e.message);
    throw new VectorFileError(file, [rule]);
  }
}

export function readVectorFile(file: string, secrets: Secrets = {}): VectorFile {
  return parseVectorFile(readVectorText(file), file, secrets);
}

/** The rules beyond the schema for one vector, as `pointer: message` lines. */
function vectorProblems(v: Vector, at: string): string[] {
  const problems: string[] = [];
  /** The check's value, or undefined with its problem noted under `pointer`. */
  const guard = <T>(pointer: string, check: () => T): T | undefined => {
    try {
      return check();
    } catch (err) {
      if (!isPayconformError(err)) throw err;
      problems.push(`${at}${pointer}: ${err.rule ?? err.message}`);
      return undefined;
    }
  };
  const path = guard('/request/url', () => normalizeUrl(v.request.url).pathname);
  if (path === undefined) return problems;
  // A callback goes to the merchant's own handler: any URL, no catalogue endpoint.
  if (v.message === 'callback') {
    if (v.credentials.merchantControlKey === undefined)
      problems.push(`${at}/credentials: merchantControlKey is ` + `required for a callback`);
    return problems;
  }
  const match = guard('/request/url', () => findPath(path));
  const operation = v.operation;
  if (operation !== undefined) {
    guard('/operation', () => {
      const endpoint = endpointByOperation(operation);
      if (endpoint.operation !== operation)
        problems.push(
          `${at}/operation: unknown operation "${v.operation}" ` + `(names are upper case, e.g. ${endpoint.operation})`,
        );
      else if (match && match.endpoint !== endpoint)
        problems.push(
          `${at}/operation: is ${v.operation} but the ` + `URL is the ${match.endpoint.operation} endpoint`,
        );
    });
  }
  if (v.scheme === 'control' && !match)
    problems.push(
      `${at}/request/url: a control vector needs a catalogue ` +
        `endpoint URL (…/api/<version>/<operation>/<endpointId>)`,
    );
  if (match && match.endpoint.auth.kind !== v.scheme) {
    problems.push(
      `${at}/scheme: is ${v.scheme} but the catalogue signs ${match.endpoint.operation} ` +
        `with ${match.endpoint.auth.kind}`,
    );
  }
  const c = v.credentials;
  const { privateKeyPem, publicKeyPem } = c;
  const verifying = v.given !== undefined;
  if (v.scheme !== 'oauth-rsa-sha256' && c.merchantControlKey === undefined)
    problems.push(`${at}/credentials: ` + `merchantControlKey is required for ${v.scheme}`);
  if (v.scheme !== 'control' && !verifying && c.login === undefined)
    problems.push(`${at}/credentials: login (the ` + `oauth_consumer_key) is required for ${v.scheme}`);
  if (v.scheme === 'oauth-rsa-sha256') {
    if (privateKeyPem !== undefined) guard('/credentials/privateKeyPem', () => loadPrivateKey(privateKeyPem));
    else if (verifying && publicKeyPem !== undefined)
      guard('/credentials/publicKeyPem', () => loadPublicKey(publicKeyPem));
    else
      problems.push(
        `${at}/credentials: an RSA-SHA256 vector needs ` + `privateKeyPem${verifying ? ' (or publicKeyPem)' : ''}`,
      );
  }
  return problems;
}
