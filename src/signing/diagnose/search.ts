/**
 * The search behind a diagnosis: a signing recipe is a record of steps, each operator replaces one or more of
 * them the way a partner's code does, and a composition replaces steps at several places at once (never two
 * operators at one step). Compositions are tried smallest first (the cheapest first among those of a size), up to
 * three operators.
 * An operator that changes nothing for this request cannot be told from the reference and is left out; a
 * composition that holds one already found is not minimal and is skipped. The work is bounded by a number of
 * recipes (deterministic) and, as a backstop, by time.
 */
import type { Mistake } from './types.ts';

/** An operator: a mistake made at one step of a recipe; its variants (partial recipes) are the caller's. */
export interface Operator extends Mistake {
  readonly step: string;
}

/** An operator with its variants for this request. */
export interface Live<R> {
  readonly op: Operator;
  readonly variants: ReadonlyArray<Partial<R>>;
}

export interface SearchSpace<R> {
  readonly reference: R;
  /** The operators, each with its variants for this request. */
  readonly operators: ReadonlyArray<Live<R>>;
  /** What a recipe signs, as one string (what the value depends on); undefined when it signs nothing here. */
  readonly outcome: (recipe: R) => string | undefined;
  /** Whether the recipe could give a value of the shape sent at all (cheap: no digest computed). */
  readonly viable: (recipe: R) => boolean;
  /** Whether the outcome reproduces the value sent. */
  readonly reproduces: (outcome: string, recipe: R) => boolean;
  /**
   * What tells a composition's recipes apart as explanations (the fields a variant left out): each that reproduces
   * the value is named; by default the first one is, as the variants of one mistake tell the partner the same.
   */
  readonly distinct?: (recipe: R) => string | undefined;
}

/** A composition that reproduces the value: its operators' ids and steps, and the recipe they make. */
export interface Found<R> {
  readonly ids: readonly string[];
  readonly steps: readonly string[];
  readonly recipe: R;
}

export interface SearchResult<R> {
  /** Every minimal composition found, smallest first, in operator order. */
  readonly found: ReadonlyArray<Found<R>>;
  /** False when a budget ran out before every composition up to the depth was tried. */
  readonly complete: boolean;
  /** The largest number of operators tried together in full. */
  readonly depth: number;
  /** The outcomes computed (each a concatenation or base string and at most one digest): the work, on any machine. */
  readonly evaluations: number;
}

export const MAX_DEPTH = 3;
/**
 * The most outcomes one search computes: a control search then takes 8–22 ms of CPU on the 2-core build machine
 * (docs/diagnoses.md, Cost). Compositions are tried cheapest first at each size, so the budget cuts only the widest
 * compositions of three (every order of five fields, fields added, the richest OAuth requests).
 */
export const MAX_EVALUATIONS = 2000;
/**
 * The bound of an OAuth search: each of its outcomes is a base string and an HMAC or RSA check, about twice a control
 * outcome's cost, so half as many keep it under 50 ms too (docs/diagnoses.md, Cost).
 */
export const MAX_OAUTH_EVALUATIONS = 1000;
/** A backstop for a machine too loaded to run even that in time: only a pathological run reaches it. */
export const BUDGET_MS = 300;

/**
 * The operators' variants that change the outcome for this request (an operator left with none is dropped), and
 * the outcomes computed to tell.
 */
function pruned<R>(space: SearchSpace<R>): { live: Array<Live<R>>; evaluations: number } {
  const reference = space.outcome(space.reference);
  let evaluations = 1;
  const live = space.operators.flatMap(({ op, variants }) => {
    const changing = variants.filter((v) => {
      evaluations++;
      const out = space.outcome({ ...space.reference, ...v });
      // Stryker disable next-line ConditionalExpression: a variant of no outcome kept is skipped in the search anyway
      return out !== undefined && out !== reference;
    });
    return changing.length ? [{ op, variants: changing }] : [];
  });
  return { live, evaluations };
}

/** Each way to take `size` operators at distinct steps, in operator order. */
function* combinations<T extends { readonly op: { readonly step: string } }>(
  items: readonly T[],
  size: number,
  from = 0,
  taken: T[] = [],
): Generator<T[]> {
  if (taken.length === size) {
    yield taken;
    return;
  }
  for (let i = from; i < items.length; i++) {
    const item = items[i] as T;
    if (taken.some((t) => t.op.step === item.op.step)) continue;
    yield* combinations(items, size, i + 1, [...taken, item]);
  }
}

/** Each recipe a composition makes: one variant of each operator, merged over the reference. */
function* recipes<R>(reference: R, chosen: ReadonlyArray<Live<R>>, at = 0, recipe: R = reference): Generator<R> {
  const next = chosen[at];
  if (next === undefined) {
    yield recipe;
    return;
  }
  for (const v of next.variants) yield* recipes(reference, chosen, at + 1, { ...recipe, ...v });
}

/** The recipes a composition makes: the product of its operators' variant counts. */
const size = <R>(chosen: ReadonlyArray<Live<R>>): number => chosen.reduce((n, c) => n * c.variants.length, 1);

export function searchCompositions<R>(
  space: SearchSpace<R>,
  budgetMs = BUDGET_MS,
  // Stryker disable next-line ArrowFunction: the real clock, which only a budget run out can show
  clock: () => number = () => performance.now(),
  maxEvaluations = MAX_EVALUATIONS,
): SearchResult<R> {
  const deadline = clock() + budgetMs;
  const { live, evaluations: pruning } = pruned(space);
  const found: Array<Found<R> & { readonly order: number }> = [];
  const seen = new Map<string, boolean>();
  let evaluations = pruning;
  const result = (complete: boolean, depth: number): SearchResult<R> => ({
    // Smallest first, then in operator order, whatever order the cost put them in.
    found: found.sort((a, b) => a.ids.length - b.ids.length || a.order - b.order).map(({ order, ...f }) => f),
    complete,
    depth,
    evaluations,
  });
  for (let n = 1; n <= MAX_DEPTH; n++) {
    // Cheapest compositions first (a stable sort keeps operator order among equals).
    const compositions = [...combinations(live, n)].map((chosen, order) => ({ chosen, order }));
    compositions.sort((a, b) => size(a.chosen) - size(b.chosen));
    for (const { chosen, order } of compositions) {
      if (clock() > deadline || evaluations + size(chosen) > maxEvaluations) return result(false, n - 1);
      const ids = chosen.map((c) => c.op.id);
      if (found.some((f) => f.ids.every((id) => ids.includes(id)))) continue;
      for (const recipe of recipes(space.reference, chosen)) {
        evaluations++;
        if (!space.viable(recipe)) continue;
        const out = space.outcome(recipe);
        if (out === undefined) continue;
        let hit = seen.get(out);
        if (hit === undefined) {
          hit = space.reproduces(out, recipe);
          seen.set(out, hit);
        }
        if (!hit) continue;
        found.push({ ids, steps: chosen.map((c) => c.op.step), recipe, order });
        if (space.distinct?.(recipe) === undefined) break;
      }
    }
  }
  return result(true, MAX_DEPTH);
}
