/**
 * The ids of docs/assumptions.md, as a type: a rule names the assumptions it rests on with these, so
 * a typo or a retired id does not compile (test/rules/assumption-ids.test.ts holds the list to the doc).
 */
export const ASSUMPTION_IDS = [
  'A-1',
  'A-2',
  'A-3',
  'A-4',
  'A-5',
  'A-6',
  'A-7',
  'A-8',
  'A-9',
  'A-10',
  'A-11',
  'A-12',
  'A-13',
  'A-14',
  'A-15',
  'A-16',
  'A-17',
  'A-18',
  'A-19',
  'A-20',
  'A-21',
  'A-22',
  'A-23',
  'A-24',
  'A-25',
  'A-26',
  'A-27',
  'A-28',
  'A-29',
  'A-30',
  'A-31',
  'A-32',
  'A-33',
  'A-34',
  'A-35',
] as const;

export type AssumptionId = (typeof ASSUMPTION_IDS)[number];
