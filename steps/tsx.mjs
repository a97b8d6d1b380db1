// Lets cucumber import the TypeScript steps: registers tsx's ESM hooks before the .ts files load
// (tsx refuses the `loader` option's module.register path, so plain `npx cucumber-js` needs this).
// A process that already runs TypeScript (payconform itself, the tests, npm run prove) keeps its own
// registration: a second one transforms every module loaded after it twice, and c8 then maps their
// coverage to the wrong lines (a suite run inside a test process cut src/signing's line coverage).
import { register } from 'tsx/esm/api';

try {
  await import('./typescript-probe.mts');
} catch {
  register();
}
