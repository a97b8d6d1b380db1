/**
 * Secrets in a shared vector file stand as placeholders (a partner pack without --include-secrets).
 * Whoever holds the real credentials fills them in from the environment before checking.
 */
import { CONTROL_KEY_PLACEHOLDER } from '../signing/control.ts';
import type { Vector } from './types.ts';

export const PRIVATE_KEY_PLACEHOLDER = '<PRIVATE_KEY>';

export interface Secrets {
  readonly controlKey?: string | undefined;
  readonly privateKeyPem?: string | undefined;
}

/** Replaces the secrets of a vector with placeholders (and the key at the end of controlInput). */
export function hideSecrets(v: Vector): Vector {
  const key = v.credentials.merchantControlKey;
  const controlInput = v.expected.controlInput;
  return {
    ...v,
    credentials: {
      ...v.credentials,
      ...(key === undefined ? {} : { merchantControlKey: CONTROL_KEY_PLACEHOLDER }),
      ...(v.credentials.privateKeyPem === undefined ? {} : { privateKeyPem: PRIVATE_KEY_PLACEHOLDER }),
    },
    expected: {
      ...v.expected,
      ...(controlInput !== undefined && key
        ? { controlInput: controlInput.slice(0, -key.length) + CONTROL_KEY_PLACEHOLDER }
        : {}),
    },
  };
}

/**
 * Fills placeholders in parsed JSON (before validation) from the given secrets; returns one problem
 * per secret still needed (how many vectors need it, the first one's pointer), so the loader can say
 * in a line which variable to set.
 */
export function fillPlaceholders(data: unknown, secrets: Secrets): string[] {
  const needed = { control: [] as string[], key: [] as string[] };
  const vectors = (data as { vectors?: unknown })?.vectors;
  if (!Array.isArray(vectors)) return [];
  vectors.forEach((v, i) => {
    const c = (v as { credentials?: Record<string, unknown> } | null)?.credentials;
    // Only an object can hold a placeholder: any other truthy value has no such properties.
    if (!c) return;
    if (c.merchantControlKey === CONTROL_KEY_PLACEHOLDER) {
      if (secrets.controlKey === undefined) needed.control.push(`/vectors/${i}/credentials/merchantControlKey`);
      else c.merchantControlKey = secrets.controlKey;
    }
    if (c.privateKeyPem === PRIVATE_KEY_PLACEHOLDER) {
      if (secrets.privateKeyPem === undefined) needed.key.push(`/vectors/${i}/credentials/privateKeyPem`);
      else c.privateKeyPem = secrets.privateKeyPem;
    }
  });
  const part = (pointers: string[], variable: string): string[] =>
    pointers.length === 0
      ? []
      : [`${variable} (${pointers.length} vector${pointers.length === 1 ? '' : 's'}, ` + `first ${pointers[0]})`];
  const parts = [...part(needed.control, 'PAYCONFORM_CONTROL_KEY'), ...part(needed.key, 'PAYCONFORM_PRIVATE_KEY_FILE')];
  // One line, however many vectors: a pack is shipped without secrets on purpose.
  return parts.length === 0
    ? []
    : [
        `credentials are the placeholders ${CONTROL_KEY_PLACEHOLDER} ` +
          `/ ${PRIVATE_KEY_PLACEHOLDER}; set ${parts.join(' and ')} to check them`,
      ];
}
