/**
 * The largest request body a gateway reads (the mock refuses more with 413, body-size), and inspect
 * measures against: one number, shared by the mock, inspect and the rules' context.
 */
export const MAX_BODY_BYTES = 64 * 1024;
