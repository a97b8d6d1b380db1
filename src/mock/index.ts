/**
 * The mock's entry: what a place that starts an embedded gateway needs (cli's mock command, certify
 * and the suite with a defect, inspect, prove). Nothing else outside src/mock imports the mock:
 * what it shares with inspect and the suite lives in src/gateway.
 */
export { startMock, type JudgedDelivery, type MockOptions, type RunningMock } from './server.ts';
export { DEFECTS, DEFECT_NAMES, defectNamed, type Defect } from './defects.ts';
export { DEFAULT_CALLBACK_TIME_SCALE, type CallbackSettings } from './callbacks.ts';
export { ADMIN_PREFIX } from './admin.ts';
export { clockOffset } from './clock.ts';
