// @ts-check
/**
 * Mutation testing of the signer, the vector toolkit and the rule book with their own unit and
 * property tests: npm run mutation (docs/mutation.md). The sandbox compiles src and the tests to
 * JavaScript beside the TypeScript (tsconfig.mutation.json, no type check), so each test file starts
 * without a TypeScript loader.
 */
import { readdirSync } from 'node:fs';

/**
 * The test files in the order a mutant meets them. Stryker runs the files that load a mutant's code
 * until one kills it, so each folder's own fast unit tests come before the slow property and diagnosis
 * searches: the signer's tests (which load no rule), then the rule book's, the vectors', diagnose's and
 * the properties'. A glob hands them over in the file system's order, which put those searches first.
 */
const ORDER = ['test/signing', 'test/rules', 'test/vectors', 'test/diagnose', 'test/properties'];
const testFiles = ORDER.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => `${dir}/${name.replace(/\.ts$/, '.js')}`),
);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ['src/signing/**/*.ts', 'src/vectors/**/*.ts', 'src/rules/**/*.ts'],
  buildCommand: 'npx tsc -p tsconfig.mutation.json --noCheck',
  testRunner: 'tap',
  tap: { testFiles, nodeArgs: ['--test-reporter=tap'], forceBail: true },
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 20000,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: 85 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['/.stryker-tmp*', '/reports'],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
};
