// oauth-sign 0.9.0 ships no types; only what the benchmark calls is declared.
declare module 'oauth-sign' {
  type Params = Record<string, string | string[]>;
  const oauthSign: {
    hmacsign(httpMethod: string, baseUri: string, params: Params, consumerSecret: string, tokenSecret?: string): string;
    sign(signMethod: string, httpMethod: string, baseUri: string, params: Params, consumerSecret: string, tokenSecret?: string): string;
    rfc3986(value: string): string;
  };
  export = oauthSign;
}
