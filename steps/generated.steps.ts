/**
 * The generated checks (docs/certify.md, "Generated checks"; features/generated/): a fast-check property per
 * family and operation, run against the target through the suite's client, within the live-run safety rules
 * (World.send) and the step's deadline. A failure is shrunk to its smallest request, reported as a finding under
 * its rule with the seed and path, attached as a vector file and a curl command, and, where the verdicts are about
 * the signature, the gateway's own mistake is looked for (src/explore/gateway-mistake.ts).
 */
import fc from 'fast-check';
import { endpointByOperation, PREREQUISITES, type Operation } from '../src/catalogue/index.ts';
import type { AnswerProblem, Exchange } from '../src/client/client.ts';
import { isOrderIdField } from '../src/explore/arbitraries.ts';
import { knownMistakeCase, mistakeIds, oauthMethodOf, type Base, type Fresh } from '../src/explore/cases.ts';
import { curlCommandOf, vectorOf } from '../src/explore/evidence.ts';
import { familyNamed, type AnyFamily, type PlannedCase } from '../src/explore/families.ts';
import { gatewayMistakeLine, gatewayMistakes, type Observation } from '../src/explore/gateway-mistake.ts';
import { exploreOf, propertySeed, runsOf } from '../src/explore/settings.ts';
import { toCents } from '../src/signing/cents.ts';
import type { Pair } from '../src/signing/form-body.ts';
import { Then } from './support/verdict.ts';
import { shown, type PayWorld } from './support/world.ts';

/** One request of a run as sent and judged: its verdict, and what the spec's answer rules found wrong with it. */
interface Sent {
  readonly planned: PlannedCase;
  readonly base: Base;
  readonly exchange: Exchange;
  readonly ok: boolean;
  readonly problem?: AnswerProblem | undefined;
}

/**
 * A problem of the answer that fails the check: the spec's always, an assumption's against the mock or with --strict
 * (as the written steps judge answers); a profile's declared deviation never. Against a gateway an assumption's
 * problem is a warning, given once per property (`warned`).
 */
const failingProblem = (x: Exchange, strict: boolean): AnswerProblem | undefined =>
  x.problems.find((p) => p.deviation === undefined && (p.assumption === undefined || strict));

/** A case the gateway's profile declares it departs on: a missing or other Accept served (request.acceptRequired). */
const declaredDeviation = (world: PayWorld, c: PlannedCase): boolean =>
  c.rule === 'accept-header' && !world.profile.request.acceptRequired;

const accepted = (x: Exchange): boolean => x.status >= 200 && x.status <= 299;

/** Amounts up to the live cap and the default amount a prerequisite was made with: a capture takes no more. */
function capCents(world: PayWorld): bigint {
  const cap = BigInt(world.target.maxAmountCents);
  const made = BigInt(toCents(world.profile.amounts.default ?? '10.00'));
  return cap < made ? cap : made;
}

/** fast-check stops drawing well before the step's own timeout (steps/support/hooks.ts), so the step says why. */
const timeLimitMs = (): number => Math.floor(Number(process.env.PAYCONFORM_STEP_TIMEOUT_MS || 30_000) * 0.6);

/**
 * The base request of a run: the family's fields on a valid request of `operation`. A family that sends refusals
 * makes the prerequisite (the order a CAPTURE acts on) once per property and reuses it; one that sends valid
 * requests makes it afresh each run, since a valid request moves the order on.
 */
async function baseFor(
  world: PayWorld,
  family: AnyFamily,
  operation: Operation,
  input: never,
  fresh: Fresh,
  kept: { id?: string },
): Promise<Base> {
  const overrides = family
    .overrides(input)
    .map(([n, v]): Pair => (isOrderIdField(n) ? [n, `${v}-${world.freshOrderId()}`] : [n, v]));
  const prerequisite = PREREQUISITES[operation];
  if (!family.freshBase && prerequisite !== null && kept.id === undefined)
    kept.id = (await world.requestFor(operation)).find(([n]) => n === prerequisite.field)?.[1];
  const given: Pair[] =
    !family.freshBase && prerequisite !== null && kept.id !== undefined
      ? [[prerequisite.field, kept.id], ...overrides]
      : overrides;
  const params = await world.requestFor(operation, given);
  const { credentials, endpointId } = world.target;
  return { operation, request: world.build(operation, params, fresh()), credentials, endpointId };
}

async function checkFamily(world: PayWorld, name: string, operationName: string, expect: 'accepted' | 'refused') {
  const family = familyNamed(name);
  if (family.expect !== expect) throw new Error(`generated ${family.id} requests must be ${family.expect}`);
  const { operation } = endpointByOperation(operationName);
  const settings = exploreOf(world.parameters);
  const seed = propertySeed(settings.seed, `${family.id}/${operation}`);
  const fresh: Fresh = () => ({ nonce: world.freshOrderId(), timestamp: String(Math.floor(Date.now() / 1000)) });
  const seen: Observation[] = [];
  const kept: { id?: string } = {};
  const state: { failing: Sent[]; thrown?: Error; warned?: Exchange | undefined } = { failing: [] };
  const observe = (request: Base['request'], x: Exchange): void => {
    if (family.diagnosable)
      seen.push({ operation, endpointId: world.target.endpointId, request, accepted: accepted(x) });
  };
  const run = async (input: never): Promise<boolean> => {
    // A set-up that fails (a refused prerequisite) is the step's failure, not a case to shrink.
    if (state.thrown !== undefined) return true;
    try {
      const base = await baseFor(world, family, operation, input, fresh, kept);
      const sent: Sent[] = [];
      for (const planned of family.cases(base, input, fresh).filter((c) => !declaredDeviation(world, c))) {
        const exchange = await world.send(operation, planned.request);
        observe(planned.request, exchange);
        const problem = failingProblem(exchange, world.strict);
        state.warned ??= exchange.problems.find((p) => p.deviation === undefined && p.assumption !== undefined)
          ? exchange
          : undefined;
        const verdict = accepted(exchange) === (expect === 'accepted');
        sent.push({ planned, base, exchange, ok: verdict && problem === undefined, problem });
      }
      if (sent.every((s) => s.ok)) return true;
      state.failing = sent;
      return false;
    } catch (err) {
      state.thrown = err instanceof Error ? err : new Error(String(err));
      return true;
    }
  };
  const cap = capCents(world);
  const details = await fc.check(fc.asyncProperty(family.arbitrary(operation, cap), run), {
    seed,
    examples: (family.examples?.(operation, cap) ?? []).map((input) => [input]),
    numRuns: runsOf(settings, family.defaultRuns),
    interruptAfterTimeLimit: timeLimitMs(),
    markInterruptAsFailure: false,
  });
  if (state.thrown !== undefined) throw state.thrown;
  if (family.id === 'wrong-envelope' && !world.profile.request.acceptRequired)
    world.expect(false, {
      check: `generated ${family.id} request to ${operation}: Accept`,
      expected: `a refusal of a missing or other Accept`,
      actual: 'not sent: the profile declares the gateway serves any Accept',
      deviation: 'request.acceptRequired',
    });
  const wrong = state.failing.find((s) => !s.ok);
  if (!details.failed || wrong === undefined) {
    const warned = state.warned?.problems.find((p) => p.deviation === undefined && p.assumption !== undefined);
    if (state.warned !== undefined && warned !== undefined)
      world.expect(false, {
        check: `generated ${family.id} request to ${operation}: answer`,
        expected: 'the answer docs/assumptions.md describes',
        actual: warned.message,
        rule: warned.rule,
        exchange: world.seen(state.warned),
        detail: shown(state.warned),
      });
    return;
  }
  const path = details.counterexamplePath ?? '';
  const replay = `replay: certify --seed ${settings.seed} (path ${path})`;
  if (wrong.problem !== undefined && accepted(wrong.exchange) === (expect === 'accepted')) {
    // The verdict was right; the answer is what the spec's answer rules refuse.
    world.expect(false, {
      check: `generated ${family.id} request to ${operation}: answer`,
      expected: 'what the spec states',
      actual: `${wrong.problem.message}; ${replay}`,
      rule: wrong.problem.rule,
      exchange: world.seen(wrong.exchange),
      detail: shown(wrong.exchange),
    });
    return;
  }
  const named = family.diagnosable ? await nameTheMistake(world, wrong.base, seen, fresh, observe) : undefined;
  const login = world.target.credentials.login;
  const failed = { family: family.id, operation, case: wrong.planned, expect, seed: settings.seed, path, login };
  world.attach(JSON.stringify(vectorOf(failed), null, 2), 'application/vnd.payconform.vectors+json');
  world.attach(curlCommandOf(wrong.planned.request), 'text/x-shellscript');
  if (named !== undefined) world.attach(named, 'text/plain');
  const shrunk = `${wrong.planned.label} (shrunk in ${details.numShrinks} step${details.numShrinks === 1 ? '' : 's'})`;
  world.expect(false, {
    check: `generated ${family.id} request to ${operation}`,
    expected: expect === 'accepted' ? '200 (accepted)' : 'a refusal (no 2xx)',
    actual: `${wrong.exchange.status} for ${shrunk}; ${replay}` + (named === undefined ? '' : `; ${named}`),
    rule: wrong.planned.rule,
    kind: expect === 'accepted' ? 'refused-met' : 'accepted-wrong',
    exchange: world.seen(wrong.exchange),
    detail: shown(wrong.exchange),
  });
}

/**
 * Diagnosis in reverse: the failing request's base sent once under each known mistake of its scheme, so that the
 * one the gateway verifies under shows by being accepted; then the mistakes that predict every verdict are named.
 */
async function nameTheMistake(
  world: PayWorld,
  base: Base,
  seen: Observation[],
  fresh: Fresh,
  observe: (request: Base['request'], x: Exchange) => void,
): Promise<string> {
  for (const id of mistakeIds(oauthMethodOf(base.operation) === undefined ? 'control' : 'oauth')) {
    const request = knownMistakeCase(base, id, fresh);
    if (request !== undefined) observe(request, await world.send(base.operation, request));
  }
  return gatewayMistakeLine(gatewayMistakes(seen, world.target.credentials));
}

Then('every generated {string} request to {string} is accepted', async function (this: PayWorld, f: string, o: string) {
  await checkFamily(this, f, o, 'accepted');
});

Then('every generated {string} request to {string} is refused', async function (this: PayWorld, f: string, o: string) {
  await checkFamily(this, f, o, 'refused');
});
