/** Types for the CommonJS devDependency `oauth-sign` 0.9 (no @types package), as far as the tests use it. */
declare module 'oauth-sign' {
  type Params = Record<string, string | string[]>;
  interface OAuthSign {
    hmacsign(httpMethod: string, baseUri: string, params: Params, consumerSecret: string, tokenSecret?: string): string;
    generateBase(httpMethod: string, baseUri: string, params: Params): string;
    rfc3986(value: string): string;
  }
  const oauthSign: OAuthSign;
  export = oauthSign;
}
