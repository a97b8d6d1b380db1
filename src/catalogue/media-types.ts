/**
 * The two media types every endpoint uses (api-spec.md "Endpoints"): requests are form bodies, answers
 * (and the required Accept header) `application/vnd.pay+json`. Here, not in the rule book, so every
 * layer that describes an endpoint (rules, client, mock, the OpenAPI document) names them once.
 */
export const MEDIA_TYPE = 'application/vnd.pay+json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';
