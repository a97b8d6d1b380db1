/**
 * The answer field tables, one per response schema the catalogue names (issue 43): filled from the
 * family's public pages; src/schemas/responses.ts and the generated docs/fields.md read them.
 */
import type { FieldTable } from './types.ts';

export const ANSWER_FIELD_TABLES: readonly FieldTable[] = [];
