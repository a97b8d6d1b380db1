/**
 * Writes the per-endpoint feature files (features/<area>/<endpoint>.feature) from the catalogue:
 * each endpoint gets the scenarios issue 6 requires of every row. Run `npm run features` after the
 * catalogue changes; test/features.test.ts fails when a row lacks a required scenario or a file is
 * stale. Business flows and auth-scheme features are written by hand beside them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { ENDPOINTS } from '../src/catalogue/index.ts';
import { endpointFeaturePath, endpointFeatureText } from '../src/suite/endpoint-features.ts';

for (const endpoint of ENDPOINTS) {
  const path = endpointFeaturePath(endpoint);
  mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
  writeFileSync(path, endpointFeatureText(endpoint));
}
console.log(`wrote ${ENDPOINTS.length} endpoint features`);
