/**
 * RFC 9421 Appendix B: the published keys and examples (fixtures in test/fixtures/signatures/, sources named
 * there) reproduce the RFC's signature bases byte for byte through `http-message-sig`, and verify with the keys
 * as the key directory client imports them; any changed byte fails.
 */
import { describe, expect, it } from 'vitest';
import { createSignature, isSignatureError, verifySignature, webcrypto, type MessageDescriptor, type Verifier } from 'http-message-sig';
import { importVerifier, readDirectoryKey } from '../src/signatures/keys.js';
import { example, privateJwk, publicJwk, testRequest, testResponse, type KeyName, type RfcExample } from './fixtures/signatures/rfc9421.js';

const decoder = new TextDecoder();

async function directoryVerifier(name: KeyName): Promise<Verifier> {
  const read = await readDirectoryKey(publicJwk(name));
  if (!read.ok) throw new Error(`${name}: ${read.reason}`);
  return importVerifier(read.key);
}

/** Wraps a verifier to capture the signature base `http-message-sig` hands it. */
function recording(inner: Verifier): { verifier: Verifier; base: () => string | undefined } {
  let base: string | undefined;
  return {
    verifier: {
      algorithm: inner.algorithm,
      verify(data, signature) {
        base = decoder.decode(data);
        return inner.verify(data, signature);
      },
    },
    base: () => base,
  };
}

function messageOf(ex: RfcExample, signatureInput = ex.signatureInput, signature = ex.signature, changed?: [string, string]): MessageDescriptor {
  const extra: [string, string][] = [
    ['Signature-Input', signatureInput],
    ['Signature', signature],
  ];
  const message = ex.message === 'testRequest' ? testRequest(extra) : testResponse(extra);
  if (changed === undefined) return message;
  return { ...message, fields: message.fields.map((f) => (f.name === changed[0] ? { name: f.name, value: changed[1] } : f)) };
}

async function verifyExample(ex: RfcExample, message: MessageDescriptor) {
  const rec = recording(await directoryVerifier(ex.key));
  try {
    await verifySignature(message, {
      label: ex.label,
      policy: { algorithms: [ex.algorithm], requiredComponents: [], requiredParameters: [], now: 1618884473, clockSkew: 60 },
      resolveVerifier: () => rec.verifier,
    });
    return { verified: true, base: rec.base() };
  } catch (error) {
    if (!isSignatureError(error)) throw error;
    return { verified: false, code: error.code, base: rec.base() };
  }
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
    expect(ed).toMatchObject({ ok: true, key: { algorithm: 'ed25519', thumbprint: 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U' } });
    expect(pss).toMatchObject({ ok: true, key: { algorithm: 'rsa-pss-sha512', thumbprint: 'oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA' } });
  });

  it('reads the B.1.1 RSA and B.1.3 P-256 public keys, and refuses private key material in a directory', async () => {
    expect(await readDirectoryKey(publicJwk('test-key-rsa'))).toMatchObject({ ok: true, key: { algorithm: 'rsa-pss-sha512' } });
    expect(await readDirectoryKey(publicJwk('test-key-ecc-p256'))).toMatchObject({ ok: true, key: { algorithm: 'ecdsa-p256-sha256' } });
    expect(await readDirectoryKey(privateJwk('test-key-ed25519'))).toEqual({ ok: false, reason: 'holds private or secret key material' });
  });

  it('refuses a key whose JWK "alg" names another algorithm (B.1.1 as RS256)', async () => {
    expect(await readDirectoryKey({ ...publicJwk('test-key-rsa'), alg: 'RS256' })).toMatchObject({ ok: false });
  });
});

describe.each(['B.2.3', 'B.2.4', 'B.2.6'])('RFC 9421 %s', (section) => {
  const ex = example(section);

  it('reproduces the signature base byte for byte and verifies', async () => {
    const result = await verifyExample(ex, messageOf(ex));
    expect(result.base).toBe(ex.signatureBase.join('\n'));
    expect(result.verified).toBe(true);
  });

  it('fails when one byte of a covered field changes', async () => {
    const result = await verifyExample(ex, messageOf(ex, undefined, undefined, ['Content-Type', 'application/jsoN']));
    expect(result.base).not.toBe(ex.signatureBase.join('\n'));
    expect(result).toMatchObject({ verified: false, code: 'VerificationFailed' });
  });

  it('fails when one bit of the signature changes', async () => {
    const result = await verifyExample(ex, messageOf(ex, undefined, flipSignatureByte(ex.signature)));
    expect(result).toMatchObject({ verified: false, code: 'VerificationFailed' });
  });

  it('fails when a signature parameter changes (created)', async () => {
    const result = await verifyExample(ex, messageOf(ex, ex.signatureInput.replace('created=1618884473', 'created=1618884474')));
    expect(result).toMatchObject({ verified: false, code: 'VerificationFailed' });
  });
});

describe('RFC 9421 B.2.2 (@query-param)', () => {
  const ex = example('B.2.2');

  it('is refused by http-message-sig, which does not implement @query-param (a clean UnsupportedFeature, not a crash)', async () => {
    expect(await verifyExample(ex, messageOf(ex))).toMatchObject({ verified: false, code: 'UnsupportedFeature' });
  });

  it("verifies the RFC's signature over the RFC's published base with the directory-imported RSA-PSS key; a changed byte fails", async () => {
    const verifier = await directoryVerifier('test-key-rsa-pss');
    const signature = Buffer.from(/=:(.*):$/.exec(ex.signature)![1]!, 'base64');
    const base = new TextEncoder().encode(ex.signatureBase.join('\n'));
    expect(await verifier.verify(base, signature)).toBe(true);
    const changed = base.slice();
    changed[3] = changed[3]! ^ 0x20;
    expect(await verifier.verify(changed, signature)).toBe(false);
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
