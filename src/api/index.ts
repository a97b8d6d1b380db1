/**
 * payconform's programmatic API, the package's one entry (package.json "exports": docs/api.md): the
 * reference signer with its explanation, verification and diagnosis; the known-answer vectors; the
 * embedded mock gateway; inspect's listener. Every other module is private: the package exports no
 * other path, so its layout may change between versions.
 */
export { signRequest, type SignOptions, type SignResult } from '../signing/sign.ts';
export type { Credentials, RequestInput } from '../signing/request.ts';
export type { Pair } from '../signing/form-body.ts';
export { explain, explanationText, type Explanation, type ExplainStep } from '../signing/explain.ts';
export { verifyRequest } from '../rules/verify.ts';
export type { GivenSignature, Verdict } from '../signing/verify.ts';
export { diagnose } from '../rules/diagnose.ts';
export type { DiagnoseInput, Diagnosis } from '../signing/diagnose/index.ts';
export { readVectorFile, parseVectorFile } from '../vectors/load.ts';
export { checkVector, type VectorResult } from '../vectors/check.ts';
export type { Vector, VectorFile } from '../vectors/types.ts';
export { startMock, type MockOptions, type RunningMock } from '../mock/index.ts';
export { startListener, type ListenerOptions, type RunningListener, type InspectRecord } from '../inspect/listener.ts';
