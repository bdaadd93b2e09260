import { httpbis } from 'http-message-signatures';
import { parseDictionary, serializeInnerList, serializeItem, type InnerList } from 'structured-headers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signatureBase } from './signature-base.js';

const AGENT = 'sig1="https://agent.example"';
const input = (nonce: string): InnerList =>
  parseDictionary(`sig1=("@authority" "@method" "signature-agent";key="sig1");created=1;expires=2;keyid="k";nonce="${nonce}";tag="web-bot-auth"`).get(
    'sig1',
  ) as InnerList;
const FIELDS: Record<string, string> = { accept: 'application/json' };
const request = (targetUri: string, agent = AGENT) => ({
  method: 'GET',
  targetUri,
  field: (name: string) => (name === 'signature-agent' ? agent : (FIELDS[name] ?? null)),
});

/** The base as the library makes it whole, every line at once. */
function expected(targetUri: string, member: InnerList, agent = AGENT): string {
  const fields = member[0].map((item) => serializeItem(item));
  const lines = httpbis.createSignatureBase({ fields }, { method: 'GET', url: targetUri, headers: { ...FIELDS, 'signature-agent': agent } });
  lines.push(['"@signature-params"', [serializeInnerList(member)]]);
  return httpbis.formatSignatureBase(lines);
}

afterEach(() => vi.restoreAllMocks());

describe('signatureBase', () => {
  it("makes a component's lines once for the same message parts, whatever the signature parameters", () => {
    const url = 'https://catalog.example/v1/catalog';
    const made = vi.spyOn(httpbis, 'createSignatureBase');
    const first = Buffer.from(signatureBase(request(url), input('n-1'))).toString();
    const second = Buffer.from(signatureBase(request(url), input('n-2'))).toString();
    expect(made).toHaveBeenCalledTimes(1);
    made.mockRestore();
    expect(first).toBe(expected(url, input('n-1')));
    expect(second).toBe(expected(url, input('n-2')));
    expect(second).toContain('"@signature-params": ("@authority" "@method" "signature-agent";key="sig1");created=1;expires=2;keyid="k";nonce="n-2"');

    // Another authority or another covered value is another message.
    const again = vi.spyOn(httpbis, 'createSignatureBase');
    const elsewhere = Buffer.from(signatureBase(request('https://other.example/v1/catalog'), input('n-3'))).toString();
    const otherAgent = Buffer.from(signatureBase(request(url, 'sig1="https://agent2.example"'), input('n-4'))).toString();
    expect(again).toHaveBeenCalledTimes(2);
    again.mockRestore();
    expect(elsewhere).toBe(expected('https://other.example/v1/catalog', input('n-3')));
    expect(otherAgent).toBe(expected(url, input('n-4'), 'sig1="https://agent2.example"'));
  });

  it('serializes the member as the library does: components with and without parameters, every parameter type', () => {
    const url = 'https://catalog.example/v1/lessons/py-values?page=2';
    const member = parseDictionary(
      'sig2=(  "@method" "@target-uri" "@path" "accept" "signature-agent";key="sig1");created=1700000000;expires=1700000060;' +
        'keyid="k";alg="ed25519";nonce="a\\"b";tag=web-bot-auth;flag',
    ).get('sig2') as InnerList;
    const base = Buffer.from(signatureBase(request(url), member)).toString();
    expect(base).toBe(expected(url, member));
    expect(base.split('\n').at(-1)).toBe(`"@signature-params": ${serializeInnerList(member)}`);
    expect(base).toContain(
      '"signature-agent";key="sig1");created=1700000000;expires=1700000060;keyid="k";alg="ed25519";nonce="a\\"b";tag=web-bot-auth;flag',
    );
  });
});
