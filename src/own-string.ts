/**
 * A string of its own: V8 keeps a long substring (13 characters or more) as a slice of its parent, so a value read
 * from a request and kept (an order's id, a field's last valid value) would keep the whole request body alive, card
 * number included. Slicing a concatenation makes V8 flatten it into a new string first, so the result is a slice of
 * that copy only (test/own-string.test.ts weighs it); half the cost of a UTF-8 round trip through a Buffer.
 */
export const ownString = (s: string): string => (s.length < 13 ? s : ` ${s}`.slice(1));
