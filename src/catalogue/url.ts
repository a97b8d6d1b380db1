/** Building an endpoint's URL: {base_url} (with any prefix before /api/) + path with the endpointId. */
import { fieldError } from '../errors.ts';
import { checkEndpointId, type PathMatch } from './lookup.ts';
import type { Endpoint } from './endpoints.ts';

/** `form: 'group'` builds the vendor's endpoint-group URL, `…/{operation}/group/{groupId}`. */
export function endpointUrl(
  baseUrl: string,
  endpoint: Endpoint,
  endpointId: string,
  field = 'endpointId',
  form: 'id' | 'group' = 'id',
): string {
  return endpointTarget(baseUrl, endpoint, endpointId, field, form).url;
}

/** The URL and the catalogue match it is built from, which a signer takes instead of matching the URL again. */
export function endpointTarget(
  baseUrl: string,
  endpoint: Endpoint,
  endpointId: string,
  field = 'endpointId',
  form: 'id' | 'group' = 'id',
): { readonly url: string; readonly match: PathMatch } {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch (cause) {
    throw fieldError(
      'ERR_URL',
      'base-url',
      'must be an absolute URL such as https://sandbox.gateway.example/paynet',
      cause,
    );
  }
  if (base.search || base.hash) throw fieldError('ERR_URL', 'base-url', 'must not contain a query or fragment');
  if (/\/api(\/|$)/.test(base.pathname)) {
    throw fieldError('ERR_URL', 'base-url', 'must stop before /api/ (the endpoint path is added from the catalogue)');
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const id = checkEndpointId(endpointId, field);
  const url = `${base.origin}${prefix}${endpoint.path.replace('{endpointId}', form === 'group' ? `group/${id}` : id)}`;
  return { url, match: { endpoint, endpointId: id, prefix, ...(form === 'group' ? { group: true } : {}) } };
}
