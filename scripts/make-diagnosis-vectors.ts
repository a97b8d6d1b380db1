// Writes vectors/diagnoses.json (npm run vectors:diagnoses); test/vectors/diagnoses.test.ts fails if it drifts.
import { writeFileSync } from 'node:fs';
import { diagnosisVectors } from '../src/vectors/diagnosis-vectors.ts';

writeFileSync(
  new URL('../vectors/diagnoses.json', import.meta.url),
  `${JSON.stringify(diagnosisVectors(), null, 2)}\n`,
);
