import { describe, expect, it, vi } from 'vitest';
import * as structuredHeaders from 'structured-headers';

// Counts the dictionary parses behind readSignatureFields' memory of parsed field values.
const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock('structured-headers', async (original) => {
  const actual = await original<typeof structuredHeaders>();
  return {
    ...actual,
    parseDictionary: (text: string) => {
      parses.count++;
      return actual.parseDictionary(text);
    },
  };
});

const { readSignatureFields } = await import('./fields.js');

const input = (extra: string) => `sig1=("@authority");created=1;expires=2;keyid="k";tag="web-bot-auth"${extra}`;

describe('readSignatureFields', () => {
  it('parses a reused signature once, and a signature with a nonce (single use) every time it comes', () => {
    const reused = input(';alg="ed25519"');
    parses.count = 0;
    expect(readSignatureFields(reused, 'sig1=:cmV1c2Vk:')).toMatchObject({ ok: true });
    expect(readSignatureFields(reused, 'sig1=:cmV1c2Vk:')).toMatchObject({ ok: true });
    expect(parses.count).toBe(2); // Signature-Input and Signature, once each

    const once = input(';nonce="n-1"');
    parses.count = 0;
    expect(readSignatureFields(once, 'sig1=:b25jZQ==:')).toMatchObject({ ok: true, candidates: [{ nonce: 'n-1' }] });
    expect(readSignatureFields(once, 'sig1=:b25jZQ==:')).toMatchObject({ ok: true });
    expect(parses.count).toBe(4);
  });
});
