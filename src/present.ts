/**
 * A value the caller's own making guarantees (an entry of a table it just built, the errors of a
 * failed validation): a missing one is payconform's own bug, so it is an internal error that names
 * what was missing, where a non-null assertion would let `undefined` run on unseen.
 */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`${what} is missing`);
  return value;
}
