/**
 * Content-coding negotiation (RFC 9110 §12.5.3): which of br, gzip and identity to send for an
 * `Accept-Encoding` field, by q-value (`q=0` refuses a coding; `*` stands for codings not listed; identity is
 * acceptable unless refused by `identity;q=0` or `*;q=0`). Ties prefer br, then gzip, then identity.
 * Results are cached per distinct field value: clients send few distinct values, so the hot path is one lookup.
 */

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

/** A qvalue (RFC 9110 §12.4.2): `0`–`1` with at most three decimals; anything else is invalid. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Parses a field value; invalid members are ignored (the client's intent is unknowable). */
export function parseAcceptEncoding(field: string): EncodingPreference {
  let br: number | undefined;
  let gzip: number | undefined;
  let identity: number | undefined;
  let star: number | undefined;
  for (const member of field.split(',')) {
    const [rawName, ...params] = member.split(';');
    const name = rawName!.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    let valid = true;
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      if (p.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const v = p.slice(eq + 1).trim();
      if (QVALUE.test(v)) q = Number(v);
      else valid = false;
    }
    if (!valid) continue;
    if (name === 'br') br = q;
    else if (name === 'gzip' || name === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (name === 'identity') identity = q;
    else if (name === '*') star = q;
  }
  const qBr = br ?? star ?? 0;
  const qGzip = gzip ?? star ?? 0;
  const qIdentity = identity ?? star ?? 1;
  const ranked: Array<[Exclude<Coding, 'identity'>, number]> = [];
  if (qBr > 0) ranked.push(['br', qBr]);
  if (qGzip > 0) ranked.push(['gzip', qGzip]);
  // Stable sort keeps br before gzip on equal q.
  ranked.sort((a, b) => b[1] - a[1]);
  // Only an explicit `identity;q=…` ranked above a compressed coding beats it; an implied identity ranks last.
  const compressed = ranked.filter(([, q]) => identity === undefined || q >= identity).map(([c]) => c);
  return Object.freeze({ compressed, identityAcceptable: qIdentity > 0 });
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
