/**
 * The search behind a diagnosis: a signing recipe is a record of steps, each operator replaces one or more of
 * them the way a partner's code does, and a composition replaces steps at several places at once (never two
 * operators at one step). Compositions are tried smallest first, up to three operators, under a time budget.
 * An operator that changes nothing for this request cannot be told from the reference and is left out; a
 * composition that holds one already found is not minimal and is skipped.
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
  /** False when the budget ran out before every composition up to the depth was tried. */
  readonly complete: boolean;
  /** The largest number of operators tried together in full. */
  readonly depth: number;
}

export const MAX_DEPTH = 3;
/** Well above the search's usual few milliseconds: only a pathological request reaches it. */
export const BUDGET_MS = 300;

/** The operators' variants that change the outcome for this request; an operator left with none is dropped. */
function pruned<R>(space: SearchSpace<R>): Array<Live<R>> {
  const reference = space.outcome(space.reference);
  return space.operators.flatMap(({ op, variants }) => {
    const live = variants.filter((v) => {
      const out = space.outcome({ ...space.reference, ...v });
      // Stryker disable next-line ConditionalExpression: a variant of no outcome kept is skipped in the search anyway
      return out !== undefined && out !== reference;
    });
    return live.length ? [{ op, variants: live }] : [];
  });
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

export function searchCompositions<R>(
  space: SearchSpace<R>,
  budgetMs = BUDGET_MS,
  // Stryker disable next-line ArrowFunction: the real clock, which only a budget run out can show
  clock: () => number = () => performance.now(),
): SearchResult<R> {
  const deadline = clock() + budgetMs;
  const live = pruned(space);
  const found: Array<Found<R>> = [];
  const seen = new Map<string, boolean>();
  for (let size = 1; size <= MAX_DEPTH; size++) {
    for (const chosen of combinations(live, size)) {
      if (clock() > deadline) return { found, complete: false, depth: size - 1 };
      const ids = chosen.map((c) => c.op.id);
      if (found.some((f) => f.ids.every((id) => ids.includes(id)))) continue;
      for (const recipe of recipes(space.reference, chosen)) {
        if (!space.viable(recipe)) continue;
        const out = space.outcome(recipe);
        if (out === undefined) continue;
        let hit = seen.get(out);
        if (hit === undefined) {
          hit = space.reproduces(out, recipe);
          seen.set(out, hit);
        }
        if (!hit) continue;
        found.push({ ids, steps: chosen.map((c) => c.op.step), recipe });
        break;
      }
    }
  }
  return { found, complete: true, depth: MAX_DEPTH };
}
