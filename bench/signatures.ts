/**
 * Verified agents under load (issue 17): what a verified agent costs against an anonymous client, and what an
 * attacker sending signatures that cannot verify leaves to everyone else.
 *
 * - Verified vs anonymous: `/v1/catalog` with one pre-signed Ed25519 signature (bench/lib/signing.ts; no nonce, so
 *   wrk may resend it) against the same request unsigned, on one service process with the budgets raised.
 * - Garbage signatures: the service with its default budgets behind a trusted proxy (`TRUST_PROXY=127.0.0.1`).
 *   Other clients (`bench/flood.lua`: a new address per request, so no budget runs out) read `/v1/catalog` alone,
 *   then while one attacker address on 8 connections sends requests carrying 3 signatures of random bytes each
 *   (`bench/garbage-signatures.lua`), naming its own loopback key directory that publishes an RSA key of the given
 *   size. The ratio is the others' throughput with the attacker to without, measured in the same run, and the cost
 *   of one attacker request is the others' requests it displaced, against the same attacker sending no signature.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LIMITS } from '../src/http/ratelimit/budgets.js';
import { rawGet, headerOf } from './lib/capture.js';
import { RAISED_LIMITS, kindOfPolicy, startServerProcess, waitUntilCompressed } from './lib/servers.js';
import { startBenchAgent } from './lib/signing.js';
import { median, round } from './lib/stats.js';
import { runWrk, type WrkResult } from './lib/wrk.js';

const FLOOD_LUA = fileURLToPath(new URL('./flood.lua', import.meta.url));
/** The attacker's wrk script; arguments: signatures per request, bytes each, keyid, directory origin, authority. */
export const GARBAGE_LUA = fileURLToPath(new URL('./garbage-signatures.lua', import.meta.url));
const DECLARED_UA = 'bench-agent/1.0 (+https://bench.example)';
/** The service's default budgets (the benchmark raises them elsewhere): the attacker's address runs out. */
const DEFAULT_BUDGETS = {
  RATE_LIMIT_VERIFIED: String(DEFAULT_LIMITS.verified),
  RATE_LIMIT_DECLARED: String(DEFAULT_LIMITS.declared),
  RATE_LIMIT_BROWSER: String(DEFAULT_LIMITS.browser),
  RATE_LIMIT_ANONYMOUS: String(DEFAULT_LIMITS.anonymous),
  RATE_LIMIT_REFERRALS: String(DEFAULT_LIMITS.referrals),
};

/** Options of {@link runSignatureBench}. Times in seconds. */
export interface SignatureBenchOptions {
  serverBundle: string;
  contentDir: string;
  measureS: number;
  reps: number;
  connections: number;
  /** RSA modulus sizes of the attacker's key, in bits (each is one attack scenario). */
  attackerKeyBits: number[];
  log: (line: string) => void;
}

/** One attack scenario's outcome. Throughputs in requests per second. */
export interface AttackResult {
  /** The attacker's RSA key size in bits; 0: the same attacker sending no signature (the reference). */
  keyBits: number;
  /** Others' throughput without the attacker (median of the runs). */
  aloneRps: number;
  /** Others' throughput while the attacker sends. */
  attackedRps: number;
  /** attackedRps / aloneRps. */
  ratio: number;
  /** Requests the attacker completed per second, and how many of them were refused with 429. */
  attackerRps: number;
  attackerRefusedShare: number;
  /** Others' requests lost per attacker request: (aloneRps − attackedRps) / attackerRps. */
  costInRequests: number;
}

/** The section's results. */
export interface SignatureBenchResult {
  verifiedRps: number;
  anonymousRps: number;
  /** verifiedRps / anonymousRps. */
  verifiedRatio: number;
  attacks: AttackResult[];
}

/** A loopback key directory publishing one RSA public key of `bits` bits (random modulus: nothing will verify). */
export async function attackerDirectory(bits: number): Promise<{ origin: string; keyid: string; close: () => Promise<void> }> {
  const modulus = crypto.getRandomValues(new Uint8Array(bits / 8));
  modulus[0] = 0xff; // every signature starting with a zero byte is below it: the full modular exponentiation runs
  modulus[modulus.length - 1]! |= 1;
  const n = Buffer.from(modulus).toString('base64url');
  const keyid = createHash('sha256')
    .update(JSON.stringify({ e: 'AQAB', kty: 'RSA', n }))
    .digest('base64url');
  const body = JSON.stringify({ keys: [{ kty: 'RSA', e: 'AQAB', n }] });
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/http-message-signatures-directory+json', 'Cache-Control': 'max-age=86400' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    keyid,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Runs both measurements on fresh service processes. */
export async function runSignatureBench(o: SignatureBenchOptions): Promise<SignatureBenchResult> {
  const env = { CONTENT_DIR: o.contentDir, KEY_DIRECTORY_ALLOW_INSECURE: '1', LOG_LEVEL: 'warn' };
  const medianRps = async (run: () => Promise<WrkResult>): Promise<number> => {
    const values: number[] = [];
    for (let i = 0; i < o.reps; i++) values.push((await run()).requestsPerSecond);
    return round(median(values));
  };

  // Verified agent vs anonymous client.
  const agent = await startBenchAgent();
  const raised = await startServerProcess(o.serverBundle, [], { env: { ...env, ...RAISED_LIMITS } });
  let verifiedRps: number;
  let anonymousRps: number;
  try {
    await waitUntilCompressed(raised.url, '/v1/catalog');
    const url = `${raised.url}/v1/catalog`;
    const signed = { 'User-Agent': DECLARED_UA, ...(await agent.sign(url, 3600)) };
    const kind = kindOfPolicy(headerOf(await rawGet(url, signed), 'ratelimit-policy'));
    if (kind !== 'verified') throw new Error(`the bench agent was classified as ${kind}, not verified`);
    await runWrk({ url, durationS: 1, connections: o.connections, headers: signed });
    verifiedRps = await medianRps(() => runWrk({ url, durationS: o.measureS, connections: o.connections, headers: signed }));
    anonymousRps = await medianRps(() => runWrk({ url, durationS: o.measureS, connections: o.connections }));
    o.log(`  verified ${verifiedRps} req/s, anonymous ${anonymousRps} req/s: ×${round(verifiedRps / anonymousRps, 2)}`);
  } finally {
    await raised.child.stop();
    await agent.close();
  }

  // Others' throughput with and without an attacker; 0 bits: the same attacker without signatures (the reference).
  const attacks: AttackResult[] = [];
  for (const bits of [0, ...o.attackerKeyBits]) {
    const directory = bits === 0 ? undefined : await attackerDirectory(bits);
    const server = await startServerProcess(o.serverBundle, [], { env: { ...env, ...DEFAULT_BUDGETS, TRUST_PROXY: '127.0.0.1' } });
    try {
      await waitUntilCompressed(server.url, '/v1/catalog');
      const url = `${server.url}/v1/catalog`;
      const others = () =>
        runWrk({
          url,
          durationS: o.measureS,
          connections: o.connections,
          headers: { 'User-Agent': DECLARED_UA },
          script: FLOOD_LUA,
          scriptArgs: ['0'],
        });
      await others();
      // Alone and attacked alternate, so a drift in the machine's speed touches both alike.
      const alone: number[] = [];
      const attacked: number[] = [];
      const attackerRuns: WrkResult[] = [];
      for (let i = 0; i < o.reps; i++) {
        alone.push((await others()).requestsPerSecond);
        const attack = runWrk({
          url,
          durationS: o.measureS + 2,
          connections: 8,
          headers: { 'User-Agent': DECLARED_UA, 'X-Forwarded-For': '203.0.113.66' },
          ...(directory && {
            script: GARBAGE_LUA,
            scriptArgs: ['3', String(bits / 8), directory.keyid, directory.origin, new URL(server.url).host],
          }),
        });
        await new Promise((resolve) => setTimeout(resolve, 1000));
        attacked.push((await others()).requestsPerSecond);
        attackerRuns.push(await attack);
      }
      const aloneRps = round(median(alone));
      const attackedRps = round(median(attacked));
      const attackerRps = round(median(attackerRuns.map((r) => r.requestsPerSecond)));
      const refused =
        attackerRuns.reduce((sum, r) => sum + r.non2xx3xx, 0) /
        Math.max(
          1,
          attackerRuns.reduce((sum, r) => sum + r.requests, 0),
        );
      const result: AttackResult = {
        keyBits: bits,
        aloneRps,
        attackedRps,
        ratio: round(attackedRps / aloneRps, 2),
        attackerRps,
        attackerRefusedShare: round(refused, 2),
        costInRequests: round((aloneRps - attackedRps) / Math.max(1, attackerRps), 2),
      };
      attacks.push(result);
      o.log(
        `  attacker ${bits === 0 ? 'without signatures' : `with RSA-${bits}`}: others ${aloneRps} → ${attackedRps} req/s (×${result.ratio}); attacker ${attackerRps} req/s, ${Math.round(refused * 100)} % refused; each cost ${result.costInRequests} of the others' requests`,
      );
    } finally {
      await server.child.stop();
      await directory?.close();
    }
  }
  return { verifiedRps, anonymousRps, verifiedRatio: round(verifiedRps / anonymousRps, 2), attacks };
}
