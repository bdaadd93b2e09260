import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../errors.js';
import { manifestSignatureValid, RELEASE_PUBLIC_KEY, releaseKey, releaseUrlProblem, testReleasesAllowed } from './signature.js';

const keys = generateKeyPairSync('ed25519');
const manifest = Buffer.from('{"version":"1.2.3"}\n');
const signature = sign(null, manifest, keys.privateKey).toString('base64');
const keyFile = join(mkdtempSync(join(tmpdir(), 'release-key-')), 'key.pem');
writeFileSync(keyFile, keys.publicKey.export({ type: 'spki', format: 'pem' }).toString());

describe('manifest signatures (Ed25519)', () => {
  it('accept exactly the signed bytes', () => {
    expect(manifestSignatureValid(manifest, `${signature}\n`, keys.publicKey)).toBe(true);
    expect(manifestSignatureValid(Buffer.from('{"version":"1.2.4"}\n'), signature, keys.publicKey)).toBe(false);
  });

  it('refuse another key, a truncated signature and garbage', () => {
    expect(manifestSignatureValid(manifest, signature, releaseKey({}))).toBe(false);
    expect(manifestSignatureValid(manifest, signature.slice(0, 40), keys.publicKey)).toBe(false);
    expect(manifestSignatureValid(manifest, 'not base64 at all!', keys.publicKey)).toBe(false);
  });
});

describe('the release key', () => {
  it('is the pinned one unless the explicit test setting names another', () => {
    const pinned = releaseKey({}).export({ type: 'spki', format: 'pem' }).toString();
    expect(pinned).toBe(RELEASE_PUBLIC_KEY);
    // The test key alone is ignored: only with SYLLABUS_ALLOW_TEST_RELEASES=1.
    expect(releaseKey({ SYLLABUS_RELEASE_TEST_KEY: keyFile }).export({ type: 'spki', format: 'pem' }).toString()).toBe(RELEASE_PUBLIC_KEY);
    const test = releaseKey({ SYLLABUS_ALLOW_TEST_RELEASES: '1', SYLLABUS_RELEASE_TEST_KEY: keyFile });
    expect(manifestSignatureValid(manifest, signature, test)).toBe(true);
  });

  it('says which test key file it cannot read', () => {
    expect(() => releaseKey({ SYLLABUS_ALLOW_TEST_RELEASES: '1', SYLLABUS_RELEASE_TEST_KEY: '/nonexistent/key.pem' })).toThrow(CliError);
  });
});

describe('release URLs', () => {
  const allowed = { SYLLABUS_ALLOW_TEST_RELEASES: '1' };
  it.each([
    ['https://releases.example.com/latest.json', {}, undefined],
    ['http://releases.example.com/latest.json', {}, 'releases are only fetched over https, not from http://releases.example.com/latest.json'],
    ['http://127.0.0.1:8080/latest.json', {}, 'releases are only fetched over https, not from http://127.0.0.1:8080/latest.json'],
    ['http://127.0.0.1:8080/latest.json', allowed, undefined],
    ['http://localhost/latest.json', allowed, undefined],
    ['http://[::1]:9/latest.json', allowed, undefined],
    ['http://releases.example.com/latest.json', allowed, 'releases are only fetched over https, not from http://releases.example.com/latest.json'],
    ['ftp://releases.example.com/latest.json', allowed, 'releases are only fetched over https, not from ftp://releases.example.com/latest.json'],
  ] as const)('%s (%o)', (url, env, problem) => {
    expect(releaseUrlProblem(new URL(url), env)).toBe(problem);
  });

  it('the test setting is exactly SYLLABUS_ALLOW_TEST_RELEASES=1', () => {
    expect(testReleasesAllowed({ SYLLABUS_ALLOW_TEST_RELEASES: 'true' })).toBe(false);
    expect(testReleasesAllowed({ SYLLABUS_ALLOW_TEST_RELEASES: '1' })).toBe(true);
  });
});
