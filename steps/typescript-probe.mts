// Imported by steps/tsx.mjs to learn whether this process can already load TypeScript (.mts, so
// cucumber's steps/**/*.ts never imports it itself).
export const typescript: boolean = true;
