/**
 * What a run exercised (issue 29): the capabilities a certificate can speak for, each exercised or
 * not, and why not, stated before the verdict. A green run that never reached the merchant's
 * callbacks must not read like one that did. The capabilities come from the catalogue (its
 * operations, signature schemes and prerequisite chains) and from the features' `@capability:NAME`
 * tags (what the catalogue does not know: callbacks, endpoint groups, hosted pages…); a capability
 * is exercised when one of its scenarios ran and was not "not applicable".
 */
import { ENDPOINTS, PREREQUISITES, type Operation } from '../catalogue/index.ts';
import { fieldError } from '../errors.ts';
import type { ScenarioResult } from './run-record.ts';

/** What the features tag by name: `@capability:NAME` on the scenarios that exercise it. */
export const TAGGED_CAPABILITIES = [
  'callbacks',
  'customer-return',
  'endpoint-groups',
  '3-d-secure',
  'hosted-pages',
] as const;

export const CAPABILITY_TAG = '@capability:';

interface Capability {
  readonly name: string;
  /** Whether a scenario with these tags exercises it. */
  readonly covers: (tags: readonly string[]) => boolean;
}

const endpointTag = (op: Operation): string => `@endpoint:${op}`;

/** Every capability, in the order shown: endpoints, schemes, flows, then the tagged ones. */
export const CAPABILITIES: readonly Capability[] = [
  ...ENDPOINTS.map(({ operation }) => ({
    name: `endpoint:${operation}`,
    covers: (tags: readonly string[]) => tags.includes(endpointTag(operation)),
  })),
  ...[...new Set(ENDPOINTS.map((e) => e.auth.kind))]
    .filter((kind) => kind !== 'unstated')
    .map((kind) => ({ name: `scheme:${kind}`, covers: (tags: readonly string[]) => tags.includes(`@scheme:${kind}`) })),
  // A flow is an operation on what its prerequisite made: its accepted scenario (or a flow scenario) makes both.
  ...Object.entries(PREREQUISITES).flatMap(([op, pre]) =>
    pre === null
      ? []
      : [
          {
            name: `flow:${pre.operation}+${op}`,
            covers: (tags: readonly string[]) =>
              tags.includes(endpointTag(op as Operation)) &&
              (tags.includes('@positive') || tags.includes('@spec:flows')),
          },
        ],
  ),
  ...TAGGED_CAPABILITIES.map((name) => ({
    name,
    covers: (tags: readonly string[]) => tags.includes(`${CAPABILITY_TAG}${name}`),
  })),
];

export const CAPABILITY_NAMES: readonly string[] = CAPABILITIES.map((c) => c.name);

/** Why a capability was not exercised. */
export type NotExercisedWhy =
  /** its scenarios ran here as not applicable: a setting of this run was missing */
  | 'not configured'
  /** the gateway profile says the gateway does not offer it (notApplicable, a declared deviation) */
  | "not offered by this gateway's profile"
  /** the tag selection (or --live, which leaves out @mock-only) holds none of its scenarios */
  | 'left out of the selection'
  /** the selection holds its scenarios, but another shard runs them */
  | 'left out of this shard';

export interface NotExercised {
  readonly capability: string;
  readonly why: NotExercisedWhy;
  /** The not-applicable reasons of its scenarios, or what left it out. */
  readonly detail: string;
  /** How a run includes it: the variable, flag or profile key. */
  readonly include: string;
  /** The selection covers it: a run that misses it is PARTIAL (false for `left out of the selection`). */
  readonly inSelection: boolean;
}

/** summary.json's `coverage` (docs/certify.md, "Coverage"). */
export interface Coverage {
  /** Capabilities of the selection, and how many of them were exercised. */
  readonly selected: number;
  readonly exercised: readonly string[];
  readonly notExercised: readonly NotExercised[];
  /** What --require (or the profile's `require`) asked for; one of them not exercised fails the run. */
  readonly required: readonly string[];
  readonly requiredMissing: readonly string[];
}

/** What coverageOf needs beside the results. */
export interface CoverageInput {
  /** The tags of every scenario the selection holds, across all shards (the results are this run's). */
  readonly selection: ReadonlyArray<readonly string[]>;
  /** The tag expression of the selection, to say what left a capability out. */
  readonly tags: string;
  readonly shard: string | null;
  /** The gateway profile's name: its not-applicable reasons start with it (steps/support/hooks.ts). */
  readonly profile: string;
  readonly live: boolean;
  readonly required: readonly string[];
}

const DEVIATION_REASON = /^the profile sets /;

function whyNot(
  c: Capability,
  results: readonly ScenarioResult[],
  input: CoverageInput,
): Omit<NotExercised, 'capability'> {
  const selected = input.selection.filter((tags) => c.covers(tags));
  if (selected.length === 0)
    return {
      why: 'left out of the selection',
      // A live run's expression holds `not @mock-only` (run.ts): the hosted pages and 3-D Secure flows among them.
      detail: `--tags ${input.tags}`,
      include: input.live ? 'widen --tags, or certify against the mock for its @mock-only scenarios' : 'widen --tags',
      inSelection: false,
    };
  const reasons = [...new Set(results.filter((r) => c.covers(r.tags)).flatMap((r) => r.notApplicable ?? []))];
  if (reasons.length === 0)
    return {
      why: 'left out of this shard',
      detail: `shard ${input.shard ?? '?'} runs none of its scenarios`,
      include: 'run every shard and merge them (payconform bundle merge)',
      inSelection: true,
    };
  const offered = (reason: string): boolean => reason.startsWith(`${input.profile}: `) || DEVIATION_REASON.test(reason);
  if (reasons.every(offered))
    return {
      why: "not offered by this gateway's profile",
      detail: reasons.join('; '),
      include:
        "the profile's notApplicable (or deviation) leaves it out: remove that entry where the gateway offers it",
      inSelection: true,
    };
  return {
    why: 'not configured',
    detail: reasons.filter((r) => !offered(r)).join('; '),
    include: INCLUDE[c.name] ?? reasons.filter((r) => !offered(r)).join('; '),
    inSelection: true,
  };
}

/** How to include a tagged capability a run was not configured for (the others' reasons name it). */
const INCLUDE: Readonly<Record<string, string>> = {
  callbacks: 'PAYCONFORM_CALLBACK_URL and PAYCONFORM_CALLBACK_PORT (a gateway on loopback needs neither)',
  'endpoint-groups': 'PAYCONFORM_ENDPOINT_GROUP_ID',
};

/** The coverage of `results` (this run's, or every shard's merged) over the selection. */
export function coverageOf(results: readonly ScenarioResult[], input: CoverageInput): Coverage {
  const ran = results.filter((r) => r.notApplicable === undefined);
  const exercised = CAPABILITIES.filter((c) => ran.some((r) => c.covers(r.tags)));
  const done = new Set(exercised.map((c) => c.name));
  const missed = CAPABILITIES.filter((c) => !done.has(c.name)).map((c) => ({
    capability: c.name,
    ...whyNot(c, results, input),
  }));
  return {
    selected: exercised.length + missed.filter((m) => m.inSelection).length,
    exercised: exercised.map((c) => c.name),
    notExercised: missed,
    required: input.required,
    requiredMissing: input.required.filter((name) => !done.has(name)),
  };
}

/** The capabilities the selection covers that the run did not exercise: what makes it PARTIAL. */
export const missingOf = (coverage: Coverage): readonly NotExercised[] =>
  coverage.notExercised.filter((m) => m.inSelection);

/** Why `name` is no capability, or undefined when it is one. */
export function notACapability(name: string): string | undefined {
  if (CAPABILITY_NAMES.includes(name)) return undefined;
  return (
    `"${name}" is not a capability (one of ${TAGGED_CAPABILITIES.join(', ')}, endpoint:OPERATION, ` +
    `scheme:control|oauth-hmac-sha1|oauth-rsa-sha256, flow:FIRST+THEN; docs/certify.md, "Coverage")`
  );
}

/** The names of `--require` (repeated or comma-separated), checked: an unknown one is bad input naming the option. */
export function requiredCapabilities(names: readonly string[], field: string): string[] {
  const all = names
    .flatMap((n) => n.split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  for (const name of all) {
    const problem = notACapability(name);
    if (problem !== undefined) throw fieldError('ERR_SELECTION', field, problem);
  }
  return [...new Set(all)];
}
