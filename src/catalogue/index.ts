export { ENDPOINTS, OP, type Endpoint, type Operation, type SigningEndpoint } from './endpoints.ts';
export { endpointTarget, endpointUrl } from './url.ts';
export { MEDIA_TYPE, FORM_TYPE } from './media-types.ts';
export {
  endpointByOperation,
  isOperation,
  findPath,
  matchPath,
  checkEndpointId,
  operationNames,
  type PathMatch,
} from './lookup.ts';
export type {
  EndpointFacts,
  EndpointGroup,
  EndpointUse,
  MockBehaviour,
  FeatureArea,
  AuthScheme,
  AuthKind,
  SignableScheme,
  ControlField,
  ControlFieldSource,
  VersionSegment,
} from './types.ts';
export { PREREQUISITES, THREE_DS_CARD, type Prerequisite } from './flows.ts';
export {
  CALLBACK_ATTEMPTS,
  CALLBACK_FIELDS,
  CALLBACK_FORMULA,
  CALLBACK_METHODS,
  CALLBACK_NAME,
  CALLBACK_STATUSES,
  CALLBACK_URL_FIELDS,
  DEFAULT_CALLBACK_METHOD,
  GATEWAY_CALLBACK_PORTS,
  MERCHANT_URL_FIELDS,
  RETURN_FIELDS,
  callbackUrlOf,
  callbackWaitMinutes,
  gatewayRefusesPort,
  merchantUrl,
  merchantUrlText,
  transactionType,
  type CallbackMethod,
} from './callback.ts';
