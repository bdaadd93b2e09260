/**
 * RFC 9421 Appendix B: the published keys and examples (fixtures in test/fixtures/signatures/, sources named
 * there) reproduce the RFC's signature bases byte for byte through the verifier's own signature base
 * (src/signatures/signature-base.ts), and verify with the keys as the key directory client reads and imports
 * them; any changed byte fails.
 */
import { describe, expect, it } from 'vitest';
import { parseDictionary, type InnerList } from 'structured-headers';
import { createSignature, webcrypto, type MessageDescriptor } from 'http-message-sig';
import { importKeyVerifier, type SignatureAlgorithm } from '../src/signatures/algorithms.js';
import { readDirectoryKey } from '../src/signatures/keys.js';
import { signatureBase } from '../src/signatures/signature-base.js';
import { example, privateJwk, publicJwk, testRequest, type KeyName, type RfcExample } from './fixtures/signatures/rfc9421.js';

const decoder = new TextDecoder();

async function directoryVerifier(name: KeyName, algorithm: string) {
  const read = await readDirectoryKey(publicJwk(name));
  if (!read.ok) throw new Error(`${name}: ${read.reason}`);
  return importKeyVerifier(read.key.jwk, algorithm as SignatureAlgorithm);
}

function messageOf(ex: RfcExample, signatureInput = ex.signatureInput, signature = ex.signature, changed?: [string, string]): MessageDescriptor {
  const extra: [string, string][] = [
    ['Signature-Input', signatureInput],
    ['Signature', signature],
  ];
  const message = testRequest(extra);
  if (changed === undefined) return message;
  return { ...message, fields: message.fields.map((f) => (f.name === changed[0] ? { name: f.name, value: changed[1] } : f)) };
}

/** Builds the base of a request example with the verifier's code and checks the signature with the directory key. */
async function verifyExample(ex: RfcExample, message: MessageDescriptor) {
  if (message.kind !== 'request') throw new Error('a request example');
  const field = (name: string) => {
    const values = message.fields.filter((f) => f.name.toLowerCase() === name).map((f) => f.value);
    return values.length === 0 ? null : values.join(', ');
  };
  const input = parseDictionary(field('signature-input')!).get(ex.label) as InnerList;
  const [bytes] = parseDictionary(field('signature')!).get(ex.label) as [ArrayBuffer, unknown];
  const base = signatureBase({ method: message.method, targetUri: message.targetUri, field }, input);
  const verifier = await directoryVerifier(ex.key, ex.algorithm);
  return { verified: await verifier.verify(base, new Uint8Array(bytes)), base: decoder.decode(base) };
}

/** Flips one bit of the first byte of a `label=:base64:` signature value. */
function flipSignatureByte(signature: string): string {
  const [label, b64] = /^([^=]+)=:(.*):$/.exec(signature)!.slice(1) as [string, string];
  const bytes = Buffer.from(b64, 'base64');
  bytes[0] = bytes[0]! ^ 1;
  return `${label}=:${bytes.toString('base64')}:`;
}

describe('RFC 9421 B.1 test keys', () => {
  it('name the B.1.4 Ed25519 and B.1.2 RSA-PSS keys by the JWK thumbprints the Web Bot Auth vectors use (RFC 7638, RFC 8037 A.3)', async () => {
    const ed = await readDirectoryKey(publicJwk('test-key-ed25519'));
    const pss = await readDirectoryKey(publicJwk('test-key-rsa-pss'));
    expect(ed).toMatchObject({ ok: true, key: { algorithms: ['ed25519'], thumbprint: 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U' } });
    expect(pss).toMatchObject({
      ok: true,
      key: { algorithms: ['rsa-pss-sha512', 'rsa-v1_5-sha256'], thumbprint: 'oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA' },
    });
  });

  it('reads the B.1.1 RSA and B.1.3 P-256 public keys, and refuses private key material in a directory', async () => {
    // An RSA JWK without "alg" may be either RSA algorithm: the signature's "alg" decides, never a guess.
    expect(await readDirectoryKey(publicJwk('test-key-rsa'))).toMatchObject({ ok: true, key: { algorithms: ['rsa-pss-sha512', 'rsa-v1_5-sha256'] } });
    expect(await readDirectoryKey(publicJwk('test-key-ecc-p256'))).toMatchObject({ ok: true, key: { algorithms: ['ecdsa-p256-sha256'] } });
    expect(await readDirectoryKey(privateJwk('test-key-ed25519'))).toEqual({ ok: false, reason: 'holds private or secret key material' });
  });

  it('narrows an RSA key to the algorithm its JWK "alg" names, and refuses an "alg" that does not fit the key', async () => {
    expect(await readDirectoryKey({ ...publicJwk('test-key-rsa'), alg: 'RS256' })).toMatchObject({
      ok: true,
      key: { algorithms: ['rsa-v1_5-sha256'] },
    });
    expect(await readDirectoryKey({ ...publicJwk('test-key-rsa'), alg: 'PS512' })).toMatchObject({
      ok: true,
      key: { algorithms: ['rsa-pss-sha512'] },
    });
    expect(await readDirectoryKey({ ...publicJwk('test-key-rsa'), alg: 'ES256' })).toMatchObject({ ok: false });
    expect(await readDirectoryKey({ ...publicJwk('test-key-ecc-p256'), alg: 'PS512' })).toMatchObject({ ok: false });
  });
});

describe.each(['B.2.2', 'B.2.3', 'B.2.6'])('RFC 9421 %s', (section) => {
  const ex = example(section);

  it('reproduces the signature base byte for byte and verifies', async () => {
    const result = await verifyExample(ex, messageOf(ex));
    expect(result.base).toBe(ex.signatureBase.join('\n'));
    expect(result.verified).toBe(true);
  });

  it('fails when one byte of a covered field changes', async () => {
    const covered: [string, string] = section === 'B.2.2' ? ['Content-Digest', 'sha-512=:AAAA:'] : ['Content-Type', 'application/jsoN'];
    const result = await verifyExample(ex, messageOf(ex, undefined, undefined, covered));
    expect(result.base).not.toBe(ex.signatureBase.join('\n'));
    expect(result.verified).toBe(false);
  });

  it('fails when one bit of the signature changes', async () => {
    const result = await verifyExample(ex, messageOf(ex, undefined, flipSignatureByte(ex.signature)));
    expect(result.verified).toBe(false);
  });

  it('fails when a signature parameter changes (created)', async () => {
    const result = await verifyExample(ex, messageOf(ex, ex.signatureInput.replace('created=1618884473', 'created=1618884474')));
    expect(result.verified).toBe(false);
  });
});

describe('RFC 9421 B.2.4 (a response, signed with ecdsa-p256-sha256)', () => {
  const ex = example('B.2.4');

  it("verifies the RFC's signature over the RFC's published base with the directory-imported P-256 key; a changed byte fails", async () => {
    const verifier = await directoryVerifier('test-key-ecc-p256', 'ecdsa-p256-sha256');
    const signature = Buffer.from(/=:(.*):$/.exec(ex.signature)![1]!, 'base64');
    const base = new TextEncoder().encode(ex.signatureBase.join('\n'));
    expect(await verifier.verify(base, signature)).toBe(true);
    const changed = base.slice();
    changed[3] = changed[3]! ^ 0x20;
    expect(await verifier.verify(changed, signature)).toBe(false);
  });
});

describe('RFC 9421 §2.2.8 @query-param', () => {
  const ex = example('B.2.2');
  const input = (name: string) => parseDictionary(`sig=("@query-param";name="${name}");created=1`).get('sig') as InnerList;
  const base = (url: string, name: string) =>
    decoder.decode(signatureBase({ method: 'GET', targetUri: url, field: () => null }, input(name))).split('\n')[0];

  it("re-encodes names and values with the urlencoded set: a space is %20, and ~ ! ' ( ) are encoded", () => {
    expect(base('https://example.com/?var=this%20is%20a%20big%0Avalue', 'var')).toBe('"@query-param";name="var": this%20is%20a%20big%0Avalue');
    expect(base('https://example.com/?bar=with+plus+whitespace', 'bar')).toBe('"@query-param";name="bar": with%20plus%20whitespace');
    expect(base("https://example.com/?q=a~b!c'(d)*e-f.g_h", 'q')).toBe('"@query-param";name="q": a%7Eb%21c%27%28d%29*e-f.g_h');
    expect(base('https://example.com/?%C3%A9t%C3%A9=%E2%82%AC', '%C3%A9t%C3%A9')).toBe('"@query-param";name="%C3%A9t%C3%A9": %E2%82%AC');
  });

  it('fails for a parameter that is absent or occurs several times (§2.2.8: such a name must not be signed)', () => {
    expect(() => base('https://example.com/?a=1', 'b')).toThrow(/absent/);
    expect(() => base('https://example.com/?a=1&a=2', 'a')).toThrow(/several times/);
  });

  it('B.2.2 covers "@query-param";name="Pet" among its components', () => {
    expect(ex.signatureBase).toContain('"@query-param";name="Pet": dog');
  });
});

describe('RFC 9421 §2.1.2 dictionary members ("field";key=…)', () => {
  const input = (component: string) => parseDictionary(`sig=(${component});created=1`).get('sig') as InnerList;
  const line = (value: string, component: string) =>
    decoder
      .decode(
        signatureBase({ method: 'GET', targetUri: 'https://example.com/', field: (n) => (n === 'example-dict' ? value : null) }, input(component)),
      )
      .split('\n')[0];

  it("serialises the member strictly, as the RFC's §2.1.2 example does", () => {
    const value = ' a=1, b=2;x=1;y=2, c=(a   b   c), d';
    expect(line(value, '"example-dict";key="a"')).toBe('"example-dict";key="a": 1');
    expect(line(value, '"example-dict";key="d"')).toBe('"example-dict";key="d": ?1');
    expect(line(value, '"example-dict";key="b"')).toBe('"example-dict";key="b": 2;x=1;y=2');
    expect(line(value, '"example-dict";key="c"')).toBe('"example-dict";key="c": (a b c)');
  });

  it('reads a field that is also a valid List as the Dictionary the key parameter asks for', () => {
    expect(line('a, b', '"example-dict";key="b"')).toBe('"example-dict";key="b": ?1');
  });

  it('fails for a missing member or a field that is no dictionary', () => {
    expect(() => line('a=1', '"example-dict";key="z"')).toThrow(/no member "z"/);
    expect(() => line('(', '"example-dict";key="a"')).toThrow(/not a structured-field dictionary/);
  });
});

describe('signing the RFC examples ourselves with http-message-sig', () => {
  const signer = async (name: KeyName, algorithm: RsaHashedImportParams | Algorithm) =>
    webcrypto.signer(await crypto.subtle.importKey('jwk', privateJwk(name), algorithm, false, ['sign']));

  it('B.2.6 with the B.1.4 Ed25519 key gives exactly the RFC signature (Ed25519 is deterministic)', async () => {
    const ex = example('B.2.6');
    const fields = await createSignature(testRequest(), {
      label: ex.label,
      components: ['date', '@method', '@path', '@authority', 'content-type', 'content-length'],
      parameters: { created: 1618884473, keyid: 'test-key-ed25519' },
      signer: await signer('test-key-ed25519', { name: 'Ed25519' }),
    });
    expect(fields).toEqual({ signatureInput: ex.signatureInput, signature: ex.signature });
  });

  it('B.2.3 with the B.1.2 RSA-PSS key: randomized signatures over the same base, each verifying', async () => {
    const ex = example('B.2.3');
    const pssSigner = await signer('test-key-rsa-pss', { name: 'RSA-PSS', hash: 'SHA-512' });
    const signed = await Promise.all(
      [1, 2].map(() =>
        createSignature(testRequest(), {
          label: ex.label,
          components: ['date', '@method', '@path', '@query', '@authority', 'content-type', 'content-digest', 'content-length'],
          parameters: { created: 1618884473, keyid: 'test-key-rsa-pss' },
          signer: pssSigner,
        }),
      ),
    );
    expect(signed[0]!.signatureInput).toBe(ex.signatureInput);
    expect(signed[0]!.signature).not.toBe(signed[1]!.signature);
    for (const fields of signed) {
      const result = await verifyExample(ex, messageOf(ex, fields.signatureInput, fields.signature));
      expect(result).toEqual({ verified: true, base: ex.signatureBase.join('\n') });
    }
  });
});
