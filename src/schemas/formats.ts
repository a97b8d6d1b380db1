/** ajv-formats is CommonJS; under NodeNext its default import is the module object. */
import type { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

export const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;
