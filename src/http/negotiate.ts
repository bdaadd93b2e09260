/**
 * Content-coding negotiation (RFC 9110 §12.5.3): which of br, gzip and identity to send for an
 * `Accept-Encoding` field, by q-value (`q=0` refuses a coding; `*` stands for codings not listed; identity is
 * acceptable unless refused by `identity;q=0` or `*;q=0`). Ties prefer br, then gzip, then identity. The field is
 * read by `negotiator`; results are cached per distinct field value: clients send few distinct values, so the hot
 * path is one lookup.
 */
import Negotiator from 'negotiator';

/** A content coding the index holds a body for. */
export type Coding = 'br' | 'gzip' | 'identity';

/** The outcome of negotiating one `Accept-Encoding` value. */
export interface EncodingPreference {
  /** Acceptable compressed codings, most preferred first. */
  readonly compressed: readonly Exclude<Coding, 'identity'>[];
  /** Whether identity is acceptable; when nothing is, identity is sent anyway (RFC 9110 §12.5.3 allows it). */
  readonly identityAcceptable: boolean;
}

const NONE: EncodingPreference = Object.freeze({ compressed: [], identityAcceptable: true });

/** The codings offered, in the order that breaks ties; `x-gzip` is gzip (RFC 9110 §8.4.1.3). */
const OFFERED = ['br', 'gzip', 'x-gzip', 'identity'] as const;

/** negotiator's `encodings` with its documented `preferred` option (which `@types/negotiator` 0.6 does not declare). */
type Encodings = (available: readonly string[], options: { preferred: readonly string[] }) => string[];

/**
 * Parses a field value. Identity ranks after every compressed coding the field does not rank below it (negotiator
 * gives an unlisted identity the lowest q listed); a field negotiator cannot read counts as absent.
 */
export function parseAcceptEncoding(field: string): EncodingPreference {
  const negotiator = new Negotiator({ headers: { 'accept-encoding': field } });
  const encodings: Encodings = negotiator.encodings.bind(negotiator);
  let ranked: string[];
  try {
    ranked = encodings(OFFERED, { preferred: OFFERED });
  } catch {
    return NONE;
  }
  const identity = ranked.indexOf('identity');
  const compressed = new Set<Exclude<Coding, 'identity'>>();
  for (const coding of identity === -1 ? ranked : ranked.slice(0, identity)) compressed.add(coding === 'br' ? 'br' : 'gzip');
  return Object.freeze({ compressed: [...compressed], identityAcceptable: identity !== -1 });
}

const MAX_CACHED = 512;
/** Fields longer than this are parsed but not cached (no client needs them; a flood of them must not fill memory). */
const MAX_CACHED_FIELD = 256;
const cache = new Map<string, EncodingPreference>();

/** The preference for a request's `Accept-Encoding` (`null` when absent: identity). */
export function encodingPreference(field: string | null): EncodingPreference {
  if (field === null || field === '') return NONE;
  const hit = cache.get(field);
  if (hit !== undefined) return hit;
  const pref = parseAcceptEncoding(field.length > 4096 ? field.slice(0, 4096) : field);
  if (field.length <= MAX_CACHED_FIELD) {
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(field, pref);
  }
  return pref;
}

/**
 * The coding to send a representation in: the client's most preferred compressed coding, unless it would
 * not be smaller than identity and identity is acceptable (tiny bodies grow when compressed).
 */
export function chooseCoding(pref: EncodingPreference, sizes: { identity: number; br: number; gzip: number }): Coding {
  for (const c of pref.compressed) {
    if (!pref.identityAcceptable || sizes[c] < sizes.identity) return c;
  }
  return 'identity';
}
