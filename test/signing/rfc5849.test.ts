// RFC 5849 §3.4.1 example, with the signature as corrected by erratum 2550. The request:
//   POST /request?b5=%3D%253D&a3=a&c%40=&a2=r%20b  Host: example.com   body: c2&a3=2+q
//   consumer key 9djdj82h48djs9d2 / secret j49sk3j29djd, token kkk9d7dh3k39sjv7 / secret dh893hdasih9
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeForm } from '../../src/signing/form-body.ts';
import { signOAuth } from '../../src/signing/oauth.ts';

// §3.4.1.1 prints the base string over several lines; joined here.
const RFC_BASE_STRING =
  'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q' +
  '%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_' +
  'key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_m' +
  'ethod%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk' +
  '9d7dh3k39sjv7';

const sign = (url: string) =>
  signOAuth(
    { method: 'POST', url, params: decodeForm('c2&a3=2+q') },
    { consumerKey: '9djdj82h48djs9d2', nonce: '7d8f3e4a', timestamp: '137131201', token: 'kkk9d7dh3k39sjv7' },
    { method: 'HMAC-SHA1', consumerSecret: 'j49sk3j29djd', tokenSecret: 'dh893hdasih9' },
    'Example',
  );

describe('RFC 5849 §3.4.1 example (erratum 2550)', () => {
  const result = sign('http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b');

  it('normalises the parameters as §3.4.1.3.2 shows', () => {
    assert.equal(
      result.params.normalized,
      'a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9djdj82h48djs9d2&oauth_nonce=7d8f3e4a&oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201&oauth_token=kkk9d7dh3k39sjv7',
    );
  });

  it('builds the base string of §3.4.1.1', () => assert.equal(result.baseString, RFC_BASE_STRING));

  it('signs it as r6/TJjbCOr97/+UU0NsvSne7s5g= (erratum 2550)', () =>
    assert.equal(result.signature, 'r6/TJjbCOr97/+UU0NsvSne7s5g='));

  it('writes the canonical header with the realm first and the signature percent-encoded', () => {
    assert.equal(
      result.authorization,
      'OAuth realm="Example", oauth_consumer_key="9djdj82h48djs9d2", oauth_nonce="7d8f3e4a", oauth_signature="r6%2FTJjbCOr97%2F%2BUU0NsvSne7s5g%3D", oauth_signature_method="HMAC-SHA1", oauth_timestamp="137131201", oauth_token="kkk9d7dh3k39sjv7"',
    );
  });

  it('gives the same base string for an uppercase host, the default port and a fragment', () => {
    assert.equal(
      sign('HTTP://EXAMPLE.COM:80/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b#frag').baseString,
      RFC_BASE_STRING,
    );
  });

  it('changes the signature when the realm is signed by mistake or a port is kept', () => {
    assert.notEqual(
      sign('http://example.com:8080/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b').signature,
      result.signature,
    );
    assert.notEqual(
      sign('http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r+b').baseString.includes('r%2520b'),
      false,
    );
  });
});
