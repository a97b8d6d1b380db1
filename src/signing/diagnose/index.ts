/** Diagnosis of wrong signatures: which known canonicalisation mistake reproduces a partner's value. */
export {
  controlGiven,
  diagnoseCallback,
  diagnoseSent,
  isDigestShaped,
  isMethod,
  MISTAKES,
  WRONG_SIGNATURE_METHOD,
} from './diagnose.ts';
export {
  callbackControlWithMistake,
  controlWithMistake,
  oauthHeaderWithMistake,
  type OAuthMistakeInput,
} from './apply.ts';
export type { DiagnoseInput, Diagnosis, Mistake } from './types.ts';
