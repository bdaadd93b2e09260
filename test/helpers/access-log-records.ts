/**
 * Request records for the access-log line tests: one ordinary record, and hostile ones generated from a seed (every
 * string field full of what JSON escapes, fields left out, numbers of every kind), as the compiled serializer and
 * pino must write alike.
 */
import type { RequestRecord } from '../../src/http/observe.js';
import { seededRandom } from './seeded-random.js';

/** An ordinary record: a declared agent's catalog request. */
export const SAMPLE_RECORD: RequestRecord = {
  method: 'GET',
  path: '/v1/catalog',
  route: '/v1/catalog',
  status: 200,
  bytes: 20915,
  durationMs: 0.0734,
  clientKind: 'declared',
  clientAddress: '203.0.113.7',
  userAgent: 'bench-agent/1.0 (+https://bench.example)',
  requestId: 'b3f1c2d4-1111-2222-3333-444455556666',
  revision: '65d3165e98044efbdcda8010b4ff2a06df73dcf1',
};

/** Characters JSON escapes or that sit at a boundary of the escaping (controls, quote, backslash, DEL, Latin-1). */
const SPECIAL = [0x22, 0x5c, 0x00, 0x0a, 0x0d, 0x09, 0x1f, 0x7f, 0x80, 0xa0, 0xe9, 0xff, 0x2f, 0x3c];
/** The first lengths generated: around the serializers' thresholds (8, 42, 100 characters) and the path's cut. */
const LENGTHS = [0, 1, 7, 8, 41, 42, 43, 99, 100, 101, 512, 1025];
const NUMBERS = [0, -0, 1, 304, 20915, 0.001, 0.1 + 0.2, 123456.789, 1e21, 2 ** 53 + 2, Infinity, -Infinity];

/**
 * `count` records whose strings are Latin-1 code units (what HTTP fields and paths arrive as), biased to
 * {@link SPECIAL}; some optional fields left out.
 */
export function hostileRecords(count: number, seed: number): RequestRecord[] {
  const { random, pick } = seededRandom(seed);
  const strings = Array.from({ length: count }, (_, i) => {
    const length = LENGTHS[i] ?? Math.floor(random() * 300);
    let s = '';
    for (let j = 0; j < length; j++) s += String.fromCharCode(random() < 0.15 ? pick(SPECIAL) : 0x20 + Math.floor(random() * 0xe0));
    return s;
  });
  const at = (i: number): string => strings[i % count]!;
  return strings.map((s, i) => ({
    method: at(i + 1),
    path: s,
    route: i % 5 === 0 ? undefined : at(i + 2),
    status: NUMBERS[i % NUMBERS.length]!,
    bytes: i % 7 === 0 ? undefined : NUMBERS[(i + 3) % NUMBERS.length],
    durationMs: NUMBERS[(i + 5) % NUMBERS.length]! * 1.0001,
    clientKind: at(i + 3),
    clientAddress: i % 11 === 0 ? undefined : s.slice(0, 39),
    userAgent: i % 13 === 0 ? undefined : at(i + 4),
    requestId: at(i + 5),
    revision: i % 3 === 0 ? undefined : at(i + 6),
  }));
}
