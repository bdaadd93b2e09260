/**
 * The signature base of a request (RFC 9421 §2.5), built by `http-message-signatures` from the covered components
 * of one `Signature-Input` member: every derived component a request has (§2.2: `@method`, `@target-uri`,
 * `@authority`, `@scheme`, `@request-target`, `@path`, `@query`, `@query-param`) and header fields with their
 * `sf`, `key` and `bs` parameters (§2.1). Response-only and trailer components fail, as they must for a request.
 */
import { httpbis } from 'http-message-signatures';
import { LRUCache } from 'lru-cache';
import { isInnerList, serializeBareItem, serializeInnerList, serializeItem, serializeParameters, type InnerList } from 'structured-headers';
import { parsedDictionary } from './fields.js';

/** The request as the signature base sees it. */
export interface SignedRequest {
  method: string;
  /** The effective target URI (RFC 9110 §7.1), from which the derived components come. */
  targetUri: string;
  /** A header field's combined value by lowercase name, `null` when absent (`Headers.get`). */
  field(name: string): string | null;
}

/** Why no signature base could be built: a covered component the request lacks or this service does not derive. */
export class SignatureBaseError extends Error {
  override readonly name = 'SignatureBaseError';
}

const UTF8 = new TextEncoder();

/** A lowercase field name (RFC 9110 §5.1 token): covered components that are not derived must be one. */
export const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * The lines of the covered components (all but `"@signature-params"`) by everything they are made of: the method,
 * the target URI, each component as serialized and each covered field's value. An agent that signs every request
 * afresh (a nonce each time) covers the same components of the same values, and the library parses and serializes
 * each of them again to make its lines. Bounded in characters, as what it keeps comes from requests.
 */
const componentLines = new LRUCache<string, string>({ maxSize: 1_000_000, sizeCalculation: (lines, key) => key.length + lines.length + 1 });

/** `"@signature-params": `, as the library formats a line (§2.3), made once. */
const SIGNATURE_PARAMS_LINE_START = httpbis.formatSignatureBase([['"@signature-params"', ['']]]);

/**
 * The signature base as UTF-8 bytes: one line per covered component, then `"@signature-params"` (§2.3), the
 * member's inner list serialized (RFC 8941 §4.1.1.1) as the signer wrote it, whatever its whitespace was.
 * @param input the `Signature-Input` member (covered components and signature parameters).
 * @throws {SignatureBaseError} when a covered component is missing from the request or cannot be derived.
 */
export function signatureBase(request: SignedRequest, input: InnerList): Uint8Array {
  const headers: Record<string, string> = {};
  const components: string[] = [];
  // Unambiguous: no component, field value or URI holds a line feed, and a field's value follows its name.
  let key = `${request.method}\n${request.targetUri}`;
  for (const [name, parameters] of input[0]) {
    if (typeof name !== 'string') throw new SignatureBaseError('a covered component is not a string');
    // A component without parameters (most are) is its name serialized; the library's serializeItem would serialize
    // its empty parameters too, through an array made from the map.
    const component = parameters.size === 0 ? serializeBareItem(name) : serializeItem([name, parameters]);
    components.push(component);
    key += `\n${component}`;
    if (name.startsWith('@')) continue;
    if (!FIELD_NAME.test(name)) throw new SignatureBaseError(`"${name}" is not a field name`);
    const value = request.field(name);
    if (value === null) throw new SignatureBaseError(`the covered field "${name}" is absent`);
    headers[name] = value;
    key += `\n${value}`;
  }
  try {
    let lines = componentLines.get(key);
    if (lines === undefined) {
      lines = httpbis.formatSignatureBase(
        httpbis.createSignatureBase({ fields: components, componentParser }, { method: request.method, url: request.targetUri, headers }),
      );
      componentLines.set(key, lines);
    }
    // The member's inner list as the library serializes one (its `serializeInnerList`), from the components
    // serialized above: only the signature parameters, new with every signature, are serialized here.
    const params = `${SIGNATURE_PARAMS_LINE_START}(${components.join(' ')})${serializeParameters(input[1])}`;
    return UTF8.encode(lines === '' ? params : `${lines}\n${params}`);
  } catch (error) {
    throw new SignatureBaseError(error instanceof Error ? error.message : 'the signature base could not be built');
  }
}

/** The components derived here rather than by the library; `null` for the library's own derivation. */
function componentParser(component: string, parameters: Map<string, string | number | boolean>, message: unknown): string[] | null {
  if (component === '@query-param') return queryParam(parameters, message);
  if (parameters.has('key') && !parameters.has('bs') && !parameters.has('req')) return dictionaryMember(component, parameters, message);
  return null;
}

/**
 * A dictionary field's member named by the `key` parameter, serialised strictly (RFC 9421 §2.1.2). The library
 * would first try to parse the field as a List, and a dictionary is never a valid List: each request then paid for
 * a thrown parse error (costlier than the rest of the base), and a field valid as both (`a, b`) was refused.
 * The parse is the verifier's own, remembered, so the `Signature-Agent` it has just read is not parsed again.
 */
function dictionaryMember(field: string, parameters: Map<string, string | number | boolean>, message: unknown): string[] {
  const key = parameters.get('key');
  if (typeof key !== 'string') throw new SignatureBaseError(`"${field}";key needs a string key`);
  const value = (message as { headers: Record<string, string> }).headers[field];
  if (value === undefined) throw new SignatureBaseError(`the covered field "${field}" is absent`);
  const dictionary = parsedDictionary(value);
  if (dictionary === undefined) throw new SignatureBaseError(`the covered field "${field}" is not a structured-field dictionary`);
  const member = dictionary.get(key);
  if (member === undefined) throw new SignatureBaseError(`the covered field "${field}" has no member "${key}"`);
  return [isInnerList(member) ? serializeInnerList(member) : serializeItem(member)];
}

/**
 * `@query-param` exactly as RFC 9421 §2.2.8 derives it: each parameter's name and value parsed as
 * application/x-www-form-urlencoded and percent-encoded again with that set (WHATWG URL §5.2), so `~`, `!`, `'`,
 * `(` and `)` are encoded. The library encodes with `encodeURIComponent`, which leaves those five as they are.
 */
function queryParam(parameters: Map<string, string | number | boolean>, message: unknown): string[] {
  const name = parameters.get('name');
  if (typeof name !== 'string') throw new SignatureBaseError('@query-param without a string "name" parameter');
  const { url } = message as { url: string };
  const values: string[] = [];
  for (const [key, value] of new URL(url).searchParams) if (formEncode(key) === name) values.push(formEncode(value));
  if (values.length === 0) throw new SignatureBaseError(`the covered query parameter "${name}" is absent`);
  // §2.2.8: a name that occurs several times "MUST NOT be included"; such a signature cannot be checked.
  if (values.length > 1) throw new SignatureBaseError(`the covered query parameter "${name}" occurs several times`);
  return values;
}

/** Percent-encodes UTF-8 bytes outside ASCII alphanumerics and `*-._` (the urlencoded set; a space is `%20`). */
function formEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
