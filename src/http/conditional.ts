/**
 * `If-None-Match` evaluation (RFC 9110 §13.1.2): `*` or a list of entity tags, compared with the weak
 * comparison function (§8.8.3.2: opaque tags equal, `W/` ignored). A malformed field is treated as absent.
 */

/**
 * Whether an `If-None-Match` field value matches the current representation's entity tag.
 * @param field the header value (`null` when absent: no match).
 * @param etag the current strong tag, quoted (`"abc"`).
 * @returns true when a GET/HEAD should be answered `304 Not Modified`.
 */
export function ifNoneMatchMatches(field: string | null, etag: string): boolean {
  if (field === null) return false;
  // Fast path: the header a cache sends back is the tag we gave it.
  if (field === etag) return true;
  const n = field.length;
  let i = 0;
  for (;;) {
    while (i < n && (field[i] === ' ' || field[i] === '\t' || field[i] === ',')) i++;
    if (i >= n) return false;
    if (field[i] === '*') {
      // `*` matches any current representation, but only as the whole field value.
      return field.trim() === '*';
    }
    if (field[i] === 'W' && field[i + 1] === '/') i += 2;
    if (field[i] !== '"') return false;
    const end = field.indexOf('"', i + 1);
    if (end < 0) return false;
    // Compare the quoted opaque-tag, quotes included.
    if (end + 1 - i === etag.length && field.startsWith(etag, i)) return true;
    i = end + 1;
    while (i < n && (field[i] === ' ' || field[i] === '\t')) i++;
    if (i < n && field[i] !== ',') return false;
  }
}
