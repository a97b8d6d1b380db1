/**
 * Which gateway the suite runs against and as whom. The runner (src/suite/run.ts) hands the target to
 * the steps through cucumber's worldParameters; plain `npx cucumber-js` has none, and the steps take
 * it from the PAYCONFORM_* variables instead. Secrets come from the environment only, never from
 * arguments, so they cannot end up in a shell history or a report's command line. Without a base URL
 * the suite starts the embedded mock with its TEST-ONLY merchant.
 */
import { checkEndpointId } from '../catalogue/index.ts';
import { readFileSync } from 'node:fs';
import { PayconformError } from '../errors.ts';
import type { Defect } from '../mock/index.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../gateway/merchants.ts';
import { checkTargetChoice } from './live-safety.ts';
import { mockProfile, readProfile, type Profile } from './profile.ts';
import { readUserFile } from '../read-file.ts';
import { toCents } from '../signing/cents.ts';
import type { Credentials } from '../signing/request.ts';
import { wholeNumber } from '../whole-number.ts';

/** What the person running chose; everything else comes from the environment (readTarget). */
export interface TargetChoice {
  readonly baseUrl?: string | undefined;
  readonly live: boolean;
  readonly defect?: Defect | undefined;
  readonly strict?: boolean | undefined;
  readonly profile?: Profile | undefined;
  /** Each request's deadline, from sending to the answer's last byte (--timeout-ms; the client's default). */
  readonly timeoutMs?: number | undefined;
  /** Answer bytes kept (--max-answer-bytes; the client's default). */
  readonly maxAnswerBytes?: number | undefined;
}

/** A run's target. Plain JSON (no bigint, no functions): cucumber copies it into every World and worker. */
export interface Target {
  /** {base_url}; undefined: start the embedded mock. */
  readonly baseUrl?: string | undefined;
  readonly endpointId: string;
  /**
   * An endpoint group of the merchant (PAYCONFORM_ENDPOINT_GROUP_ID; the test merchant's against the mock): the group
   * scenarios run with it.
   */
  readonly endpointGroupId?: string | undefined;
  readonly credentials: Credentials;
  /** A real gateway: only test cards, amounts at most maxAmountCents, no mock-only magic. */
  readonly live: boolean;
  /** The live-run cap on amounts, in cents (decimal digits: a JSON number could lose precision). */
  readonly maxAmountCents: string;
  readonly pollIntervalMs: number;
  readonly pollDeadlineMs: number;
  /** A deliberately broken embedded mock (npm run prove); only without a base URL. */
  readonly defect?: Defect | undefined;
  /** Assumption misses fail the run (always so against the embedded mock, whose choices are the contract). */
  readonly strict: boolean;
  /** What this gateway decides where the spec is silent (the mock's choices where no profile says). */
  readonly profile: Profile;
  /**
   * Where a gateway reaches this run's callback handler (PAYCONFORM_CALLBACK_URL, a public URL
   * forwarded to PAYCONFORM_CALLBACK_PORT here); the embedded mock reaches loopback, so it needs none.
   */
  readonly callbackHandler?: { readonly url: string; readonly port: number } | undefined;
  /** Each request's deadline and the answer bytes kept (certify's --timeout-ms, --max-answer-bytes). */
  readonly timeoutMs?: number | undefined;
  readonly maxAnswerBytes?: number | undefined;
  /** Where each process of the run writes its exchanges as HAR entries, a line each (certify --record). */
  readonly recordDir?: string | undefined;
}

/** The profile named in a run against a gateway for which no --profile was given. */
export const NO_PROFILE = "none given (--profile): the embedded mock's choices stand in";

/** The variables a run against a real gateway needs, in the order they are checked. */
export const TARGET_VARIABLES = [
  'PAYCONFORM_ENDPOINT_ID',
  'PAYCONFORM_LOGIN',
  'PAYCONFORM_CONTROL_KEY',
  'PAYCONFORM_PRIVATE_KEY_FILE',
] as const;

/** The key under which the target travels in cucumber's worldParameters. */
export const TARGET_PARAMETER = 'payconformTarget';

// A day: far above any sensible poll, and below setTimeout's limit (2^31 - 1 ms), past which Node waits 1 ms.
const MAX_MS = 86_400_000;
const milliseconds = (env: NodeJS.ProcessEnv, name: string, fallback: number): number =>
  wholeNumber(env[name] || undefined, name, 0, MAX_MS) ?? fallback;

/**
 * The target of a run the person chose (certify's options): the choice is checked first (a defect only
 * for the mock, a usable URL, --live for anything not loopback), then the environment is read.
 */
export function resolveTarget(choice: TargetChoice, env: NodeJS.ProcessEnv): Target {
  checkTargetChoice(choice);
  return readTarget(choice, env);
}

/** The target of plain `npx cucumber-js`: PAYCONFORM_BASE_URL (none: the embedded mock) and PAYCONFORM_LIVE=1. */
export function targetFromEnv(env: NodeJS.ProcessEnv): Target {
  const baseUrl = env.PAYCONFORM_BASE_URL || undefined;
  const profile = env.PAYCONFORM_PROFILE ? readProfile(env.PAYCONFORM_PROFILE) : undefined;
  return readTarget(
    {
      baseUrl,
      live: baseUrl !== undefined && env.PAYCONFORM_LIVE === '1',
      strict: env.PAYCONFORM_STRICT === '1',
      profile,
    },
    env,
  );
}

/** The one reading of the PAYCONFORM_* variables: polling, the live cap and, for a gateway, the credentials. */
function readTarget(choice: TargetChoice, env: NodeJS.ProcessEnv): Target {
  const { baseUrl, defect } = choice;
  // A real gateway run without --profile is judged by the mock's choices: its page must not name the mock as the
  // gateway's profile.
  const profile = choice.profile ?? (baseUrl === undefined ? mockProfile() : { ...mockProfile(), name: NO_PROFILE });
  // The environment beats the profile, which beats the defaults: the person running has the last word.
  const pollIntervalMs = milliseconds(
    env,
    'PAYCONFORM_POLL_INTERVAL_MS',
    profile.poll.intervalMs ?? (baseUrl ? 500 : 0),
  );
  const pollDeadlineMs = milliseconds(
    env,
    'PAYCONFORM_POLL_DEADLINE_MS',
    profile.poll.deadlineMs ?? (baseUrl ? 120_000 : 5_000),
  );
  const maxAmountCents = env.PAYCONFORM_MAX_AMOUNT
    ? toCents(env.PAYCONFORM_MAX_AMOUNT, 'PAYCONFORM_MAX_AMOUNT')
    : toCents(profile.amounts.max ?? '10.00', '--profile /amounts/max');
  const settings = {
    maxAmountCents,
    pollIntervalMs,
    pollDeadlineMs,
    strict: baseUrl === undefined || choice.strict === true,
    profile,
    ...(choice.timeoutMs === undefined ? {} : { timeoutMs: choice.timeoutMs }),
    ...(choice.maxAnswerBytes === undefined ? {} : { maxAnswerBytes: choice.maxAnswerBytes }),
  };
  if (baseUrl === undefined) {
    const m = testMerchant();
    const [endpointId] = m.endpointIds;
    if (endpointId === undefined) throw new Error('internal: the test merchant has no endpoint id');
    return {
      baseUrl,
      endpointId,
      endpointGroupId: m.endpointGroupIds[0],
      live: false,
      ...settings,
      ...(defect ? { defect } : {}),
      credentials: {
        login: m.login,
        controlKey: m.merchantControlKey,
        privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
      },
    };
  }
  const missing = TARGET_VARIABLES.filter((name) => !env[name]).join(', ');
  if (missing)
    throw new PayconformError(
      'ERR_CREDENTIALS',
      `${missing}: missing (a run against ${originOf(baseUrl)} takes its credentials from the PAYCONFORM_* variables)`,
      { field: missing, rule: 'required' },
    );
  const endpointId = checkEndpointId(variable(env, 'PAYCONFORM_ENDPOINT_ID'), 'PAYCONFORM_ENDPOINT_ID');
  const callbackUrl = env.PAYCONFORM_CALLBACK_URL || undefined;
  if (callbackUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(callbackUrl))
    throw new PayconformError('ERR_TARGET', 'PAYCONFORM_CALLBACK_URL: must be an http(s) URL the gateway can reach', {
      field: 'PAYCONFORM_CALLBACK_URL',
      rule: 'http(s) URL',
    });
  const callbackPort = wholeNumber(env.PAYCONFORM_CALLBACK_PORT || undefined, 'PAYCONFORM_CALLBACK_PORT', 1, 65535);
  if (callbackUrl !== undefined && callbackPort === undefined)
    throw new PayconformError(
      'ERR_TARGET',
      'PAYCONFORM_CALLBACK_PORT: missing (the port here that PAYCONFORM_CALLBACK_URL is forwarded to)',
      { field: 'PAYCONFORM_CALLBACK_PORT', rule: 'required with PAYCONFORM_CALLBACK_URL' },
    );
  return {
    baseUrl,
    endpointId,
    live: choice.live,
    ...settings,
    ...(callbackUrl === undefined || callbackPort === undefined
      ? {}
      : { callbackHandler: { url: callbackUrl, port: callbackPort } }),
    ...(env.PAYCONFORM_ENDPOINT_GROUP_ID
      ? { endpointGroupId: checkEndpointId(env.PAYCONFORM_ENDPOINT_GROUP_ID, 'PAYCONFORM_ENDPOINT_GROUP_ID') }
      : {}),
    credentials: {
      login: env.PAYCONFORM_LOGIN,
      controlKey: env.PAYCONFORM_CONTROL_KEY,
      privateKeyPem: readUserFile(variable(env, 'PAYCONFORM_PRIVATE_KEY_FILE'), 'PAYCONFORM_PRIVATE_KEY_FILE'),
    },
  };
}

/** A variable of TARGET_VARIABLES, which resolveTarget has found set before it reads one. */
function variable(env: NodeJS.ProcessEnv, name: (typeof TARGET_VARIABLES)[number]): string {
  const value = env[name];
  if (!value) throw new Error(`internal: ${name} is read before it was checked present`);
  return value;
}

/** cucumber's worldParameters carrying a target (plain JSON, as cucumber requires). */
export function targetParameters(target: Target): Record<string, unknown> {
  return { [TARGET_PARAMETER]: target };
}

/** The target the runner put in worldParameters or, for plain `npx cucumber-js`, the one the environment names. */
export function targetOf(worldParameters: unknown, env: NodeJS.ProcessEnv): Target {
  const given = (worldParameters as Record<string, unknown> | undefined)?.[TARGET_PARAMETER];
  if (given === undefined) return targetFromEnv(env);
  if (given === null || typeof given !== 'object' || typeof (given as Target).endpointId !== 'string') {
    throw new PayconformError(
      'ERR_TARGET',
      `worldParameters.${TARGET_PARAMETER}: must be a target written by the runner (src/suite/run.ts)`,
      { field: `worldParameters.${TARGET_PARAMETER}`, rule: 'target' },
    );
  }
  return given as Target;
}

function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}
