/**
 * Failures grouped by their first cause (docs/certify.md, "Causes"): each failed scenario is traced,
 * from its recorded message and tags alone, to the rule of the book that failed and the exchange where
 * it did. A scenario whose set-up request was refused is "blocked by" the cause of that refusal, not
 * counted as a cause of its own. The report folder imports no rule, so the caller hands in the book's
 * facts (rules/cause-facts.ts); the summary, the page, the console, merge and prove all read this one
 * grouping.
 */
import { MISTAKES } from '../signing/diagnose/index.ts';
import { failureMessage } from './failure-message.ts';
import { refusedPrerequisiteOf } from './prerequisite-refusal.ts';
import { failing, type ScenarioResult } from './run-record.ts';

/** Who must act on a cause. */
export type Actor = 'gateway' | 'merchant-configuration' | 'merchant-code';

/**
 * How the rule was missed. `refused-met`: the gateway refused, citing the rule, a request that meets it
 * (the suite's requests are made by the reference signer). `accepted-wrong`: it accepted a request that
 * breaks it. `answered-wrong`: its answer or behaviour broke it. `sent-wrong`: the merchant's request broke
 * it (inspect). `untraced`: no rule could be named; the cause is the failed check.
 */
export type CauseKind = 'refused-met' | 'accepted-wrong' | 'answered-wrong' | 'sent-wrong' | 'untraced';

/** What a cause needs of a rule of the book (src/rules/rule.ts). */
export interface CauseRule {
  readonly clause: string;
  readonly basis: 'spec' | 'assumption';
  readonly assumptions: readonly string[];
  readonly hint: string;
  /** Its refusal codes, in the book's order. */
  readonly codes: readonly string[];
  readonly fixedIn?: 'configuration' | undefined;
}

export type CauseRules = Readonly<Record<string, CauseRule>>;

/** A scenario (or an inspected request) under a cause, with the exchange where the cause first showed. */
export interface CauseEntry {
  readonly name: string;
  readonly uri: string;
  readonly exchange: string;
}

export interface Cause {
  /** The rule's id; null for an untraced cause, which `check` then names. */
  readonly rule: string | null;
  readonly kind: CauseKind;
  readonly check?: string | undefined;
  /** The diagnosed signing mistake (docs/diagnoses.md) all its requests share, where inspect found one. */
  readonly mistake?: string | undefined;
  readonly clause: string;
  /** "spec", or the assumption ids the rule rests on ("A-1, A-3"). */
  readonly basis: string;
  readonly actor: Actor;
  readonly fix: string;
  /** The cause's own failures. */
  readonly scenarios: readonly CauseEntry[];
  /** Scenarios that failed because a prerequisite was refused for this cause. */
  readonly blocked: readonly CauseEntry[];
}

/** One failure traced to its cause (before grouping). */
export interface Traced {
  readonly rule: string | null;
  readonly kind: CauseKind;
  /** For an untraced cause, the check that failed (its words, values left out). */
  readonly check?: string | undefined;
  readonly mistake?: string | undefined;
  readonly entry: CauseEntry;
  readonly blocked: boolean;
}

/**
 * The rule a negative scenario exercises (its message names none): its own @rule: tag (the flows), else
 * from its kind and scheme tags.
 */
export function ruleOfScenario(tags: readonly string[]): string | undefined {
  const tagged = tags.find((t) => t.startsWith('@rule:'))?.slice('@rule:'.length);
  if (tagged !== undefined) return tagged;
  const kind = tags.find((t) => t.startsWith('@negative:'))?.slice('@negative:'.length);
  const control = tags.includes('@scheme:control');
  switch (kind) {
    case 'accept-missing':
    case 'accept-wrong':
      return 'accept-header';
    case 'signature-missing':
      return control ? 'control-present' : 'oauth-header-present';
    case 'signature-wrong':
      return control ? 'control-signature' : 'oauth-signature';
    case 'field-missing':
      return 'required-fields';
    default:
      // A signing mistake of the authentication features (features/auth): the signature's rule.
      if (tags.includes('@negative') && tags.includes('@spec:authentication'))
        return control ? 'control-signature' : 'oauth-signature';
      return undefined;
  }
}

/** The error code of the answer a failure quotes (JSON or the form text of a profile), if any. */
export function errorCodeOf(message: string): string | undefined {
  return /"?error[-_]?code"?\s*[:=]\s*"?([A-Z][A-Z0-9_]+)/i.exec(message)?.[1];
}

/** "SALE answered 400 CONTROL_INVALID": the exchange a failure quotes, without its body. */
function exchangeOf(message: string, code: string | undefined): string {
  const [, operation, status] = /\b([A-Z][A-Z0-9_]*),? (?:which )?answered (\d{3})\b/.exec(message) ?? [];
  if (operation === undefined) return message.split('\n')[0]?.slice(0, 120) ?? '';
  return `${operation} answered ${status}${code ? ` ${code}` : ''}`;
}

/** The rule that refuses with `code`: the one whose own code it is first (others may borrow it), else the first. */
function ruleWithCode(rules: CauseRules, code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  const ids = Object.keys(rules);
  return ids.find((id) => rules[id]?.codes[0] === code) ?? ids.find((id) => rules[id]?.codes.includes(code));
}

/** The check an untraced failure names: its first line up to "expected", numbers and ids left out. */
const checkOf = (message: string): string =>
  (message.split('\n')[0] ?? '')
    .replace(/^A-\d+(?:, A-\d+)*: /, '')
    .replace(/: expected [\s\S]*$/, '')
    .replace(/\d+/g, 'N')
    .slice(0, 120);

/** Traces one failed scenario to its first cause. */
export function traceFailure(r: ScenarioResult, rules: CauseRules): Traced {
  const message = failureMessage(r.failure ?? 'failed');
  const code = errorCodeOf(message);
  const entry = { name: r.name, uri: r.uri, exchange: exchangeOf(message, code) };
  const codeRule = ruleWithCode(rules, code);
  const untraced = (check: string): Traced => ({ rule: null, kind: 'untraced', check, entry, blocked: false });
  // A refused set-up request made by the suite met every rule: the gateway's refusal is the cause.
  const prerequisite = refusedPrerequisiteOf(message);
  if (prerequisite !== undefined)
    return codeRule === undefined
      ? { ...untraced(`${prerequisite.operation} refused`), blocked: true }
      : { rule: codeRule, kind: 'refused-met', entry, blocked: true };
  const named = /\(rule ([a-z0-9-]+)\)/.exec(message)?.[1];
  const own = ruleOfScenario(r.tags);
  if (/expected a refusal \(no 2xx\), got 2\d\d/.test(message)) {
    const rule = own ?? named;
    return rule === undefined
      ? untraced('accepted what it must refuse')
      : { rule, kind: 'accepted-wrong', entry, blocked: false };
  }
  // Refused citing a rule the request did not break (not the scenario's own, nor the expected code's),
  // where the check that failed is the refusal itself: its status, code or field, not the answer's shape.
  const expectedCode = /error code: expected ([A-Z][A-Z0-9_]+)/.exec(message)?.[1];
  const aboutRefusal = /(?:[A-Z0-9_] status|error code|field named by the error): expected/.test(
    message.split('\n')[0] ?? '',
  );
  const expectedRule = own ?? ruleWithCode(rules, expectedCode);
  if (
    aboutRefusal &&
    codeRule !== undefined &&
    codeRule !== expectedRule &&
    codeRule !== ruleWithCode(rules, expectedCode)
  ) {
    // A gateway refuses in the book's order: refused under a later rule, it let the scenario's own mistake through.
    const order = Object.keys(rules);
    if (expectedRule !== undefined && order.indexOf(codeRule) > order.indexOf(expectedRule))
      return { rule: expectedRule, kind: 'accepted-wrong', entry, blocked: false };
    return { rule: codeRule, kind: 'refused-met', entry, blocked: false };
  }
  if (named !== undefined) return { rule: named, kind: 'answered-wrong', entry, blocked: false };
  return untraced(checkOf(message));
}

/** Who must act: the gateway for what it did, the sender's configuration or code for what a sender did. */
export function actorOf(kind: CauseKind, rule: CauseRule | undefined): Actor {
  const configuration = rule?.fixedIn === 'configuration';
  if (kind === 'sent-wrong') return configuration ? 'merchant-configuration' : 'merchant-code';
  if (kind === 'refused-met' && configuration) return 'merchant-configuration';
  return 'gateway';
}

/** The fix, spoken to whoever must act. */
export function fixOf(kind: CauseKind, id: string | null, rule: CauseRule | undefined, mistake?: string): string {
  const diagnosed = MISTAKES.find((m) => m.id === mistake);
  if (diagnosed !== undefined) return `${diagnosed.explanation} ${diagnosed.fix}`;
  if (id === null || rule === undefined)
    return 'payconform could not trace this to a rule of its book: read the failure messages below';
  const code = rule.codes[0];
  switch (kind) {
    case 'refused-met':
      return rule.fixedIn === 'configuration'
        ? `the gateway does not know what payconform was given (${id}): ${rule.hint}`
        : `the gateway refused, citing ${id}, requests that meet it (made by payconform's reference signer): ` +
            `make its check follow ${rule.clause}`;
    case 'accepted-wrong':
      return (
        `the gateway accepted requests that break ${id}: refuse them${code ? ` (${code})` : ''} ` +
        `as ${rule.clause} says`
      );
    case 'answered-wrong':
    case 'sent-wrong':
    case 'untraced':
      return rule.hint;
  }
}

const basisOf = (rule: CauseRule | undefined): string =>
  rule === undefined || rule.basis === 'spec' ? 'spec' : rule.assumptions.join(', ') || 'assumption';

/** Traced failures grouped by rule and kind (untraced ones by their check), largest first. */
export function groupCauses(traced: readonly Traced[], rules: CauseRules): Cause[] {
  const groups = new Map<string, { first: Traced; own: CauseEntry[]; blocked: CauseEntry[] }>();
  for (const t of traced) {
    const key = `${t.kind} ${t.rule ?? t.check ?? ''} ${t.mistake ?? ''}`;
    const group = groups.get(key) ?? { first: t, own: [], blocked: [] };
    (t.blocked ? group.blocked : group.own).push(t.entry);
    groups.set(key, group);
  }
  const size = (c: Cause): number => c.scenarios.length + c.blocked.length;
  return [...groups.values()]
    .map(({ first, own, blocked }): Cause => {
      const rule = first.rule === null ? undefined : rules[first.rule];
      return {
        rule: first.rule,
        kind: first.kind,
        ...(first.rule === null ? { check: first.check } : {}),
        ...(first.mistake === undefined ? {} : { mistake: first.mistake }),
        clause: rule?.clause ?? '',
        basis: basisOf(rule),
        actor: actorOf(first.kind, rule),
        fix: fixOf(first.kind, first.rule, rule, first.mistake),
        scenarios: own,
        blocked,
      };
    })
    .sort((a, b) => size(b) - size(a) || String(a.rule ?? a.check).localeCompare(String(b.rule ?? b.check)));
}

/** The causes of a run's failed scenarios. */
export const causesOf = (results: readonly ScenarioResult[], rules: CauseRules): Cause[] =>
  groupCauses(
    results.filter((r) => failing(r.outcome)).map((r) => traceFailure(r, rules)),
    rules,
  );

const ACTOR: Record<Actor, string> = {
  gateway: 'the gateway',
  'merchant-configuration': "the merchant's configuration",
  'merchant-code': "the merchant's code",
};

export const actorWords = (actor: Actor): string => ACTOR[actor];

/** A cause in one console line: how many, the rule, who acts, the fix. */
export function causeLine(c: Cause): string {
  const blocked = c.blocked.length ? ` (+${c.blocked.length} blocked)` : '';
  const what = `${c.rule ?? c.check ?? '?'}${c.mistake ? ` (${c.mistake})` : ''}`;
  return `${String(c.scenarios.length).padStart(4)}${blocked} ${what} [${c.kind}] → ${actorWords(c.actor)}: ${c.fix}`;
}

/** What the console prints before the endpoint table: the causes, one line each (none when nothing failed). */
export function causesLines(causes: readonly Cause[]): string[] {
  if (causes.length === 0) return [];
  const failures = causes.reduce((n, c) => n + c.scenarios.length + c.blocked.length, 0);
  return [
    `causes: ${causes.length} behind ${failures} failures, largest first (report.html lists each)`,
    ...causes.map(causeLine),
  ];
}
