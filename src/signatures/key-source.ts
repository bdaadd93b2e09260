/**
 * Which URL to fetch for a `Signature-Agent` member value, and what the agent is called once its keys are found
 * (draft-ietf-webbotauth-httpsig-protocol-01 §4.1 "The Signature-Agent URL is the identifier", §5.5 "Key
 * Distribution and Discovery"). Only the URL is judged here; the fetch itself, and what its answer may be (a JWK
 * Set or a Signature Agent Card), belong to the directory client. Portable: no Node-only modules.
 */

/** The well-known path of an HTTP Message Signatures directory (-01 §8.1). */
export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';

/**
 * What keeps a URL from being fetched for keys, whoever named it (a `Signature-Agent` member, a card's `jwks_uri`):
 * a scheme other than `https` (`http` too when `allowInsecure`), or credentials. `undefined` when neither.
 */
export function unfetchable(url: URL, allowInsecure: boolean): 'scheme' | 'credentials' | undefined {
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) return 'scheme';
  if (url.username !== '' || url.password !== '') return 'credentials';
  return undefined;
}

/** Where an agent's keys are, or why the member value names no usable place. */
export type KeySource =
  | {
      readonly ok: true;
      /** The URL to fetch: the member value as sent, or `<origin>/.well-known/…` for a bare origin. */
      readonly url: string;
      /**
       * The agent's identifier: the origin for a bare origin (as before -01), else the fetched URL without its
       * query (-01 §5.5: the query is dropped from the identifier, not from the request), WHATWG-normalised.
       */
      readonly agent: string;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * The last value resolved and its answer: an agent sends the same `Signature-Agent` with every request, and
 * parsing it as a URL showed in the server's profile of fresh-signature requests. One entry, so a
 * client sending a new value each time cannot grow it.
 */
let lastResolved: { value: string; allowInsecure: boolean; source: KeySource } | undefined;

/**
 * Resolves a `Signature-Agent` member value to the URL whose answer holds the agent's keys. Never throws.
 *
 * - An origin (`https://agent.example` or `https://agent.example/`, no query): the well-known directory of that
 *   origin, as every earlier draft and today's deployed agents expect.
 * - Any other absolute `https` URL: fetched as given (-01 §5.5), its query included.
 *
 * Refused: not an absolute URL, a scheme other than `https` (`http` too when `allowInsecure`: tests and local
 * development), credentials, or a fragment (never sent over HTTP, so it could only make one key set appear
 * under many names).
 * The answer for the last value asked is kept and given again, the very same object.
 * @param value the member value (an sf-string's content).
 * @param allowInsecure accept `http:` URLs (`KEY_DIRECTORY_ALLOW_INSECURE`).
 */
export function keySource(value: string, allowInsecure: boolean): KeySource {
  const last = lastResolved;
  if (last?.value === value && last.allowInsecure === allowInsecure) return last.source;
  const source = resolve(value, allowInsecure);
  lastResolved = { value, allowInsecure, source };
  return source;
}

/** {@link keySource} without the memo. */
function resolve(value: string, allowInsecure: boolean): KeySource {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: 'the Signature-Agent value is not an absolute URL' };
  }
  const problem = unfetchable(url, allowInsecure);
  if (problem === 'scheme') return { ok: false, reason: 'the Signature-Agent URL is not https' };
  if (problem === 'credentials') return { ok: false, reason: 'the Signature-Agent URL carries credentials' };
  // `#` alone leaves url.hash empty: look at the text too.
  if (url.hash !== '' || value.includes('#')) return { ok: false, reason: 'the Signature-Agent URL carries a fragment' };
  const bareOrigin = (url.pathname === '/' || url.pathname === '') && url.search === '' && !value.includes('?');
  if (bareOrigin) return { ok: true, url: `${url.origin}${DIRECTORY_PATH}`, agent: url.origin };
  return { ok: true, url: url.href, agent: `${url.origin}${url.pathname}` };
}
