import { describe, expect, it } from 'vitest';
import { KeyDirectoryClient, type FetchedDirectory } from './directory-client.js';
import { readDirectoryKey } from './keys.js';

const URL_ = 'https://agent.example/.well-known/http-message-signatures-directory';
const JWK = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' };
const KEYID = 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U';

function clientWith(answers: FetchedDirectory[]) {
  const calls: string[] = [];
  const client = new KeyDirectoryClient({
    fetchDirectory: async (url) => {
      calls.push(url);
      return answers.shift() ?? { ok: false, reason: 'no more answers' };
    },
  });
  return { client, calls };
}

describe('KeyDirectoryClient', () => {
  it('does not remember a transient failure, but remembers a real one', async () => {
    const transient = clientWith([
      { ok: false, reason: 'busy', transient: true },
      { ok: true, status: 200, headers: {}, body: JSON.stringify({ keys: [JWK] }) },
    ]);
    expect(await transient.client.lookup(URL_, KEYID, 'a')).toEqual({ ok: false, code: 'fetch_failed', reason: 'key directory unavailable: busy' });
    expect(await transient.client.lookup(URL_, KEYID, 'a')).toMatchObject({ ok: true });
    expect(transient.calls).toHaveLength(2);

    const real = clientWith([
      { ok: false, reason: 'HTTP 500' },
      { ok: true, status: 200, headers: {}, body: JSON.stringify({ keys: [JWK] }) },
    ]);
    await real.client.lookup(URL_, KEYID, 'a');
    expect(await real.client.lookup(URL_, KEYID, 'a')).toEqual({ ok: false, code: 'fetch_failed', reason: 'key directory unavailable: HTTP 500' });
    expect(real.calls).toHaveLength(1);
  });

  it('skips unusable keys (private, symmetric, other curves) but keeps the usable ones; duplicates count once', async () => {
    const keys = [
      { kty: 'oct', k: 'c2VjcmV0' },
      { kty: 'OKP', crv: 'X25519', x: JWK.x },
      { ...JWK, d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' },
      'not an object',
      JWK,
      JWK,
    ];
    const { client } = clientWith([{ ok: true, status: 200, headers: {}, body: JSON.stringify({ keys }) }]);
    const found = await client.lookup(URL_, KEYID, 'a');
    expect(found).toMatchObject({ ok: true, key: { thumbprint: KEYID, algorithms: ['ed25519'] }, algorithm: 'ed25519' });
  });

  it("honours a key's nbf and exp", async () => {
    const read = await readDirectoryKey(JWK);
    expect(read.ok).toBe(true);
    const now = 1_800_000_000;
    const body = (extra: object) => JSON.stringify({ keys: [{ ...JWK, ...extra }] });
    const at = (answer: FetchedDirectory) => new KeyDirectoryClient({ fetchDirectory: async () => answer, now: () => now }).lookup(URL_, KEYID, 'a');
    expect(await at({ ok: true, status: 200, headers: {}, body: body({ nbf: now + 10 }) })).toEqual({
      ok: false,
      code: 'expired',
      reason: 'key is not valid yet (nbf)',
    });
    expect(await at({ ok: true, status: 200, headers: {}, body: body({ exp: now - 10 }) })).toEqual({
      ok: false,
      code: 'expired',
      reason: 'key has expired (exp)',
    });
    expect(await at({ ok: true, status: 200, headers: {}, body: body({ nbf: now - 10, exp: now + 10 }) })).toMatchObject({ ok: true });
  });

  it('refuses to start more fetches than its in-flight bound', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const client = new KeyDirectoryClient({
      maxInFlight: 2,
      fetchDirectory: async () => {
        await gate;
        return { ok: true, status: 200, headers: {}, body: JSON.stringify({ keys: [JWK] }) };
      },
    });
    const pending = [1, 2].map((i) => client.lookup(`https://a${i}.example/.well-known/http-message-signatures-directory`, KEYID, `c${i}`));
    expect(await client.lookup('https://a3.example/.well-known/http-message-signatures-directory', KEYID, 'c3')).toEqual({
      ok: false,
      code: 'fetch_failed',
      reason: 'too many key directory fetches in progress',
    });
    release();
    expect((await Promise.all(pending)).every((r) => r.ok)).toBe(true);
  });
});
