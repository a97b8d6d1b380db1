#!/usr/bin/env node
// The payconform command: compiled JavaScript in dist/ (made by `npm run build`, which `npm ci`,
// `npm pack` and `npm test` run). TypeScript through tsx is for development and tests only.
import { existsSync } from 'node:fs';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('payconform: dist/ is missing: run `npm run build` in the payconform checkout\n');
  process.exit(2);
}
await (await import(main.href)).main();
