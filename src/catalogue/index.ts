export { ENDPOINTS, OP, type Operation } from './endpoints.ts';
export { endpointUrl } from './url.ts';
export { MEDIA_TYPE, FORM_TYPE } from './media-types.ts';
export { endpointByOperation, isOperation, findPath, matchPath, checkEndpointId, operationNames, type PathMatch } from './lookup.ts';
export type { Endpoint, EndpointFacts, EndpointGroup, EndpointUse, MockBehaviour, FeatureArea, SigningEndpoint, AuthScheme, AuthKind, SignableScheme, ControlField, ControlFieldSource, VersionSegment } from './types.ts';
export { PREREQUISITES, THREE_DS_CARD, type Prerequisite } from './flows.ts';
export { CALLBACK_FIELDS, CALLBACK_FORMULA, CALLBACK_NAME, CALLBACK_STATUSES, RETURN_FIELDS, transactionType } from './callback.ts';
