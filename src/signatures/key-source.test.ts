import { describe, expect, it } from 'vitest';
import { DIRECTORY_PATH, keySource } from './key-source.js';

describe('keySource', () => {
  it('sends a bare origin to its well-known directory; the agent is the origin', () => {
    for (const value of ['https://agent.example', 'https://agent.example/', 'https://AGENT.example:443']) {
      expect(keySource(value, false), value).toEqual({ ok: true, url: `https://agent.example${DIRECTORY_PATH}`, agent: 'https://agent.example' });
    }
  });

  it('fetches any other https URL as given (-01 §5.5); the agent is that URL without its query', () => {
    expect(keySource('https://agent.example/keys/jwks.json', false)).toEqual({
      ok: true,
      url: 'https://agent.example/keys/jwks.json',
      agent: 'https://agent.example/keys/jwks.json',
    });
    expect(keySource('https://agent.example/card?v=2', false)).toEqual({
      ok: true,
      url: 'https://agent.example/card?v=2',
      agent: 'https://agent.example/card',
    });
    // An origin with a query is not a bare origin: fetched as sent.
    expect(keySource('https://agent.example/?x=1', false)).toMatchObject({ ok: true, url: 'https://agent.example/?x=1' });
    // The well-known URL itself, spelled out, is the same directory.
    expect(keySource(`https://agent.example${DIRECTORY_PATH}`, false)).toMatchObject({ ok: true, url: `https://agent.example${DIRECTORY_PATH}` });
  });

  it('refuses what cannot name a key set safely', () => {
    const refused: [string, string][] = [
      ['not a url', 'the Signature-Agent value is not an absolute URL'],
      ['/relative/path', 'the Signature-Agent value is not an absolute URL'],
      ['http://agent.example/keys', 'the Signature-Agent URL is not https'],
      ['ftp://agent.example/keys', 'the Signature-Agent URL is not https'],
      ['https://user:pw@agent.example/keys', 'the Signature-Agent URL carries credentials'],
      ['https://user@agent.example', 'the Signature-Agent URL carries credentials'],
      ['https://agent.example/keys#a', 'the Signature-Agent URL carries a fragment'],
      ['https://agent.example/keys#', 'the Signature-Agent URL carries a fragment'],
    ];
    for (const [value, reason] of refused) expect(keySource(value, false), value).toEqual({ ok: false, reason });
  });

  it('answers a value asked again with the same object, and never across the insecure switch', () => {
    const first = keySource('https://agent.example', false);
    expect(keySource('https://agent.example', false)).toBe(first);
    expect(keySource('http://127.0.0.1:8080', false)).toEqual({ ok: false, reason: 'the Signature-Agent URL is not https' });
    expect(keySource('http://127.0.0.1:8080', true)).toMatchObject({ ok: true });
    expect(keySource('http://127.0.0.1:8080', false)).toMatchObject({ ok: false });
    expect(keySource('https://agent.example', false)).not.toBe(first); // another value came between
    expect(keySource('https://agent.example', false)).toEqual(first);
  });

  it('admits http only with the insecure switch', () => {
    expect(keySource('http://127.0.0.1:8080', true)).toEqual({
      ok: true,
      url: `http://127.0.0.1:8080${DIRECTORY_PATH}`,
      agent: 'http://127.0.0.1:8080',
    });
    expect(keySource('http://127.0.0.1:8080/jwks', true)).toMatchObject({ ok: true, url: 'http://127.0.0.1:8080/jwks' });
    expect(keySource('ftp://127.0.0.1/jwks', true)).toMatchObject({ ok: false });
  });
});
