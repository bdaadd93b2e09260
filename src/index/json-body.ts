/**
 * The JSON bytes of an API body, kept per body object: a body that is made of other bodies (the catalog of its
 * courses) is put together from their bytes instead of being serialised again whole. The model shares unchanged
 * objects between reloads (`DerivationMemo`), so after a one-lesson edit the catalog costs one course's
 * `JSON.stringify`, not the whole tree's.
 */

const encoder = new TextEncoder();

/**
 * The bytes made for each body object, by identity. Model objects are never mutated once derived, so the bytes
 * stay right for as long as the object lives; weak, so they go with it.
 */
const bytesOf = new WeakMap<object, Uint8Array>();

/**
 * `JSON.stringify(body)` as UTF-8, byte for byte. An object body's bytes are kept for the next call with the same
 * object. A plain object body that holds known bodies is put together property by property: each element of an
 * array property whose bytes are known (it was a body itself: the catalog's courses are the course route's bodies)
 * is copied rather than serialised; elements not met before are serialised but not kept, so the parts of a body
 * that are no body of their own cost no memory.
 * @param body a JSON value: plain objects, arrays, strings, finite numbers, booleans and `null`, as the model holds
 * @throws TypeError from `JSON.stringify` (a cycle, a BigInt) or when `body` has no JSON form (`undefined`)
 */
export function jsonBody(body: unknown): Uint8Array {
  if (typeof body !== 'object' || body === null) return encoder.encode(stringify(body));
  const known = bytesOf.get(body);
  if (known) return known;
  const bytes = isPlainObject(body) && holdsKnownBody(body) ? fromParts(body) : encoder.encode(stringify(body));
  bytesOf.set(body, bytes);
  return bytes;
}

/**
 * Whether an array property of `body` holds an element whose bytes are known: only then does putting the body
 * together pay (one native `JSON.stringify` is faster than one per property).
 */
function holdsKnownBody(body: Record<string, unknown>): boolean {
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (Array.isArray(value) && (value as unknown[]).some((element) => knownBytes(element) !== undefined)) return true;
  }
  return false;
}

/** The parts of a plain object's JSON, in `JSON.stringify`'s order and with its rules for each property. */
function fromParts(body: Record<string, unknown>): Uint8Array {
  const parts: (string | Uint8Array)[] = [];
  let text = '{';
  let first = true;
  for (const key of Object.keys(body)) {
    const value = body[key];
    // JSON.stringify leaves out a property whose value has no JSON form.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (!Array.isArray(value) || hasToJson(value)) {
      text += stringify(value);
      continue;
    }
    text += '[';
    value.forEach((element: unknown, i) => {
      if (i > 0) text += ',';
      const known = knownBytes(element);
      if (known === undefined) {
        text += JSON.stringify(element) ?? 'null'; // an array keeps the place of an element with no JSON form
        return;
      }
      parts.push(text, known);
      text = '';
    });
    text += ']';
  }
  parts.push(`${text}}`);
  return concat(parts);
}

/** The bytes kept for `value`, if it is an object met as a body. */
function knownBytes(value: unknown): Uint8Array | undefined {
  return typeof value === 'object' && value !== null ? bytesOf.get(value) : undefined;
}

/** The parts as one byte array, strings encoded as UTF-8. */
function concat(parts: readonly (string | Uint8Array)[]): Uint8Array {
  const chunks = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part));
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function stringify(value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new TypeError('the body has no JSON form');
  return text;
}

/** An object `JSON.stringify` serialises by its own properties: no prototype but Object's, no `toJSON`. */
function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && !hasToJson(value);
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
