import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HttpClient } from '../http.js';
import { readOffer } from './updater.js';

const keys = generateKeyPairSync('ed25519');
const keyFile = join(mkdtempSync(join(tmpdir(), 'updater-key-')), 'key.pem');
writeFileSync(keyFile, keys.publicKey.export({ type: 'spki', format: 'pem' }).toString());
/** The explicit test setting with this file's key; http stays refused for any host but loopback. */
const env = { SYLLABUS_ALLOW_TEST_RELEASES: '1', SYLLABUS_RELEASE_TEST_KEY: keyFile };

/** A release host at https://releases.example/ serving one signed manifest whose archive URL is `url`; records requests. */
function releaseHost(url: string): { http: HttpClient; requests: string[] } {
  const manifest = Buffer.from(
    `${JSON.stringify({ version: '9.0.0', url, sha256: 'a'.repeat(64), size: 10, date: '2026-01-01T00:00:00Z' }, null, 2)}\n`,
  );
  const files: Record<string, Buffer> = {
    'https://releases.example/latest.json': manifest,
    'https://releases.example/latest.json.sig': Buffer.from(sign(null, manifest, keys.privateKey).toString('base64')),
  };
  const requests: string[] = [];
  const answer = (u: URL) => {
    requests.push(u.href);
    const body = files[u.href];
    return { url: u.href, status: body ? 200 : 404, headers: new Headers(), body: body ?? Buffer.alloc(0), ms: 1, fromCache: false };
  };
  const http = {
    getBytes: (u: URL) => Promise.resolve(answer(u)),
    getText: (u: URL) => Promise.resolve({ ...answer(u), body: answer(u).body.toString('utf8') }),
  };
  return { http: http as unknown as HttpClient, requests };
}

describe('readOffer: the archive comes from the manifest’s origin only', () => {
  it.each([
    ['plain http on the same host', 'http://releases.example/syllabus-9.0.0.tar.gz', 'http://releases.example'],
    ['another https host', 'https://cdn.example/syllabus-9.0.0.tar.gz', 'https://cdn.example'],
    ['another port', 'https://releases.example:8443/syllabus-9.0.0.tar.gz', 'https://releases.example:8443'],
    ['a protocol-relative URL to another host', '//cdn.example/syllabus-9.0.0.tar.gz', 'https://cdn.example'],
  ])('refuses a signed manifest naming %s', async (_, url, origin) => {
    const host = releaseHost(url);
    await expect(readOffer({ http: host.http, releaseUrl: new URL('https://releases.example/'), env })).rejects.toThrow(
      `The release manifest names an archive on another origin (${origin}); only https://releases.example is trusted. Nothing was installed.`,
    );
  });

  it('accepts an archive next to the manifest, relative or absolute', async () => {
    for (const url of ['syllabus-9.0.0.tar.gz', 'https://releases.example/syllabus-9.0.0.tar.gz']) {
      const offer = await readOffer({ http: releaseHost(url).http, releaseUrl: new URL('https://releases.example/'), env });
      expect(offer.archiveUrl.href).toBe('https://releases.example/syllabus-9.0.0.tar.gz');
    }
  });
});
