/**
 * Failures grouped by their first cause (docs/certify.md, "Causes"): each failed scenario is traced, from
 * the finding its step recorded (src/report/findings.ts) and its tags, to the rule of the book that failed
 * and the exchange where it did. Nothing here reads a failure's message: it quotes the gateway, whose
 * words must not choose the rule. A scenario whose set-up request was refused is "blocked by" the cause
 * of that refusal, not counted as a cause of its own. The summary, the page, the console, merge and prove
 * all read this one grouping, and the facts each cause names come from the book itself.
 */
import { REQUEST_RULES, RULES } from '../rules/book.ts';
import type { Rule } from '../rules/rule.ts';
import { MISTAKES } from '../signing/diagnose/index.ts';
import { failureMessage } from './failure-message.ts';
import { exchangeWords, type CauseKind, type Finding } from './findings.ts';
import { failing, type ScenarioResult } from './run-record.ts';

export type { CauseKind };

/** Who must act on a cause. */
export type Actor = 'gateway' | 'merchant-configuration' | 'merchant-code';

/** What a cause needs of a rule of the book (src/rules/rule.ts). */
export interface CauseRule {
  readonly clause: string;
  readonly basis: 'spec' | 'assumption';
  readonly assumptions: readonly string[];
  readonly hint: string;
  /** Its refusal codes, in the book's order. */
  readonly codes: readonly string[];
  readonly fixedIn?: 'configuration' | undefined;
  /** A miss leaks a secret (rule.ts severity): its cause is listed first and marked critical. */
  readonly critical?: true | undefined;
}

export type CauseRules = Readonly<Record<string, CauseRule>>;

const factsOf = (rules: ReadonlyArray<Rule<never>>): CauseRules =>
  Object.fromEntries(
    rules.map((r) => [
      r.id,
      {
        clause: r.clause,
        basis: r.basis,
        assumptions: r.assumptions,
        hint: r.hint,
        codes: r.refusals.map((x) => x.code),
        fixedIn: r.fixedIn,
        ...(r.severity === 'critical' ? { critical: true as const } : {}),
      },
    ]),
  );

/** Every rule of the book, in its order: what certify's failures may name. */
export const CAUSE_FACTS = factsOf(RULES);

/** The request rules: what inspect judges a merchant's request by. */
export const REQUEST_CAUSE_FACTS = factsOf(REQUEST_RULES);

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
  /** Its rule leaks a secret when missed: listed before every other cause. */
  readonly critical?: true;
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

/** The rule that refuses with `code`: the one whose own code it is first (others may borrow it), else the first. */
function ruleWithCode(rules: CauseRules, code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  const ids = Object.keys(rules);
  return ids.find((id) => rules[id]?.codes[0] === code) ?? ids.find((id) => rules[id]?.codes.includes(code));
}

/**
 * The finding a failed scenario's cause is made from: the first its steps recorded. A failure with none (a
 * hook's error, a step cucumber could not run) is untraced under the first line of what it threw.
 */
export function findingOf(r: ScenarioResult): Finding {
  const recorded = r.findings?.[0];
  if (recorded !== undefined) return recorded;
  const check = (failureMessage(r.failure ?? 'failed').split('\n')[0] ?? '').slice(0, 120);
  return { kind: 'untraced', check, expected: '', actual: '' };
}

/** Where a finding showed: its exchange in a few words, else its check, expected and actual. */
const whereOf = (f: Finding): string =>
  f.exchange !== undefined
    ? exchangeWords(f.exchange)
    : (f.expected || f.actual ? `${f.check}: expected ${f.expected}, got ${f.actual}` : f.check).slice(0, 120);

/** Traces one failed scenario to its first cause, from its finding's fields and its tags. */
export function traceFailure(r: ScenarioResult, rules: CauseRules): Traced {
  const f = findingOf(r);
  const entry = { name: r.name, uri: r.uri, exchange: whereOf(f) };
  const codeRule = ruleWithCode(rules, f.exchange?.errorCode);
  const untraced = (check: string): Traced => ({ rule: null, kind: 'untraced', check, entry, blocked: false });
  // A refused set-up request made by the suite met every rule: the gateway's refusal is the cause.
  if (f.prerequisite !== undefined)
    return codeRule === undefined
      ? { ...untraced(`${f.prerequisite.operation} refused`), blocked: true }
      : { rule: codeRule, kind: 'refused-met', entry, blocked: true };
  const own = ruleOfScenario(r.tags);
  if (f.kind === 'accepted-wrong') {
    const rule = own ?? f.rule;
    return rule === undefined
      ? untraced('accepted what it must refuse')
      : { rule, kind: 'accepted-wrong', entry, blocked: false };
  }
  // Refused citing a rule the request did not break (not the scenario's own, nor the expected code's),
  // where the check that failed is the refusal itself: its status, code or field, not the answer's shape.
  const expectedCodeRule = ruleWithCode(rules, f.expectedCode);
  const expectedRule = own ?? expectedCodeRule;
  if (
    f.kind === 'refused-met' &&
    codeRule !== undefined &&
    codeRule !== expectedRule &&
    codeRule !== expectedCodeRule
  ) {
    // A gateway refuses in the book's order: refused under a later rule, it let the scenario's own mistake through.
    const order = Object.keys(rules);
    if (expectedRule !== undefined && order.indexOf(codeRule) > order.indexOf(expectedRule))
      return { rule: expectedRule, kind: 'accepted-wrong', entry, blocked: false };
    return { rule: codeRule, kind: 'refused-met', entry, blocked: false };
  }
  if (f.rule !== undefined && f.kind !== 'untraced')
    return { rule: f.rule, kind: 'answered-wrong', entry, blocked: false };
  return untraced(f.check);
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
        ...(rule?.critical ? { critical: true as const } : {}),
      };
    })
    .sort(
      (a, b) =>
        Number(b.critical ?? false) - Number(a.critical ?? false) ||
        size(b) - size(a) ||
        String(a.rule ?? a.check).localeCompare(String(b.rule ?? b.check)),
    );
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
  const critical = c.critical ? 'CRITICAL ' : '';
  const count = String(c.scenarios.length).padStart(4);
  return `${count}${blocked} ${critical}${what} [${c.kind}] → ${actorWords(c.actor)}: ${c.fix}`;
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
