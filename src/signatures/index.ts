/**
 * Verified agents (Web Bot Auth): RFC 9421 HTTP Message Signatures whose key is published in the
 * `Signature-Agent` key directory. This entry point is for Node: it wires the guarded `node:https` directory
 * fetcher and node:crypto's Ed25519 check (node-key-verifier.ts). The http layer receives only the resulting
 * `verify` function, so it stays runtime-neutral; other runtimes can call `createSignatureVerifier` (verifier.ts) with their own `DirectoryFetcher`.
 */
import { createGuardedFetcher, type GuardedFetcherOptions } from './node-fetcher.js';
import { importNodeKeyVerifier } from './node-key-verifier.js';
import { createSignatureVerifier, type SignatureVerifier, type SignatureVerifierOptions } from './verifier.js';
import type { KeyDirectoryClient, KeyDirectoryClientOptions } from './directory-client.js';

export type { SignatureVerifier } from './verifier.js';
export { createGuardedFetcher } from './node-fetcher.js';

/** Options of {@link createNodeSignatureVerifier}. Times in seconds unless named `…Ms`. */
export interface NodeSignatureVerifierOptions extends Omit<SignatureVerifierOptions, 'directory'> {
  /** Directory cache limits (the fetcher is provided). */
  directory?: Omit<KeyDirectoryClientOptions, 'fetchDirectory'>;
  /** Transport limits of the directory fetch (`allowInsecure` follows `allowInsecureDirectories`). */
  fetch?: Omit<GuardedFetcherOptions, 'allowInsecure'>;
}

/**
 * Creates the verifier the server wires into the client-kind step:
 * `createNodeSignatureVerifier({ allowInsecureDirectories: config.keyDirectoryAllowInsecure, clockSkewSeconds: config.signatureClockSkewSeconds })`.
 */
export function createNodeSignatureVerifier(options: NodeSignatureVerifierOptions = {}): SignatureVerifier & { directories: KeyDirectoryClient } {
  const allowInsecure = options.allowInsecureDirectories ?? false;
  return createSignatureVerifier({
    ...options,
    directory: { importKey: importNodeKeyVerifier, ...options.directory, fetchDirectory: createGuardedFetcher({ ...options.fetch, allowInsecure }) },
  });
}
