/**
 * Reading the Web Bot Auth request fields: `Signature-Input` and `Signature` (RFC 9421 §4.1, §4.2) and
 * `Signature-Agent` (draft-ietf-webbotauth-httpsig-protocol §"Signature-Agent"), parsed as RFC 8941/9651
 * structured fields with `structured-headers`. Everything here is hostile input: every function returns a
 * reason instead of throwing. Portable: no Node-only modules.
 */
import { LRUCache } from 'lru-cache';
import { isInnerList, parseDictionary, parseItem, type BareItem, type Dictionary, type InnerList, type Item } from 'structured-headers';

/**
 * Parsed field values by their text, bounded by the characters kept: an agent sends the same `Signature-Agent`
 * (and, reusing a signature, the same `Signature-Input` and `Signature`) on every request, and parsing them costs
 * more than the rest of a cached verification. The results are shared: nothing may change them.
 */
const parsed = new LRUCache<string, { value: unknown }>({ maxSize: 2_000_000, sizeCalculation: (_v, text) => text.length + 1 });

/**
 * `parse(text)`, remembered by `namespace` and text (a throw is remembered as `undefined`) unless `keep` says the
 * value will not be asked for again.
 */
function remembered<T>(namespace: string, text: string, parse: (text: string) => T, keep: (value: T) => boolean = () => true): T | undefined {
  const key = `${namespace}${text}`;
  const hit = parsed.get(key);
  if (hit !== undefined) return hit.value as T | undefined;
  let value: T | undefined;
  try {
    value = parse(text);
  } catch {
    value = undefined;
  }
  if (value === undefined || keep(value)) parsed.set(key, { value });
  return value;
}

/**
 * Whether a `Signature-Input` dictionary carries a nonce: such a signature is single use (RFC 9421 §7.2.2), so its
 * two fields never come again and remembering them would only push out the fields that do.
 */
function carriesNonce(inputs: Dictionary): boolean {
  for (const member of inputs.values()) if (member[1].has('nonce')) return true;
  return false;
}

/**
 * A field value parsed as a structured-field dictionary (RFC 8941 §4.2.2), remembered by its text; `undefined` when
 * it is not one. The result is shared: nothing may change it.
 */
export function parsedDictionary(text: string): Dictionary | undefined {
  return remembered('d', text, parseDictionary);
}

/** The tag a Web Bot Auth signature carries. */
export const WEB_BOT_AUTH_TAG = 'web-bot-auth';

/** One covered component of a signature (RFC 9421 §2). */
export interface CoveredComponent {
  /** Lowercase component name: a field name or a derived component such as `@authority`. */
  name: string;
  /** Its parameters (`key`, `req`, …). */
  parameters: ReadonlyMap<string, BareItem>;
}

/** A `Signature-Input` member whose tag is `web-bot-auth`, with its parameters read but not yet judged. */
export interface SignatureCandidate {
  /** The signature's label (the dictionary key shared by `Signature-Input` and `Signature`). */
  label: string;
  /** The covered components, in order. */
  components: CoveredComponent[];
  /** The `Signature-Input` member as parsed (components and parameters): the source of `@signature-params`. */
  input: InnerList;
  /** The signature's bytes (the `Signature` member). */
  signature: Uint8Array;
  /** `created`, in seconds since the epoch, when present and an integer. */
  created?: number;
  /** `expires`, in seconds since the epoch, when present and an integer. */
  expires?: number;
  /** `keyid`, when present and a string. */
  keyid?: string;
  /** `alg`, when present and a string. */
  alg?: string;
  /** `nonce`, when present and a string. */
  nonce?: string;
}

/** What a request's signature fields hold, or why they cannot be used. */
export type SignatureFieldsResult = { ok: true; candidates: SignatureCandidate[] } | { ok: false; reason: string };

/** At most this many Web Bot Auth signatures are tried per request, so a header cannot buy unbounded work. */
export const MAX_CANDIDATES = 3;

/**
 * Parses `Signature-Input` and `Signature` and returns the members tagged `web-bot-auth` that also have a
 * `Signature` member (at most {@link MAX_CANDIDATES}, in header order).
 * @param signatureInput the combined `Signature-Input` field value, or `null` when absent.
 * @param signature the combined `Signature` field value, or `null` when absent.
 */
export function readSignatureFields(signatureInput: string | null, signature: string | null): SignatureFieldsResult {
  if (signatureInput === null && signature === null) return { ok: false, reason: 'unsigned request' };
  if (signatureInput === null) return { ok: false, reason: 'Signature without Signature-Input' };
  if (signature === null) return { ok: false, reason: 'Signature-Input without Signature' };
  const inputs = remembered('i', signatureInput, parseDictionary, (dictionary) => !carriesNonce(dictionary));
  if (inputs === undefined) return { ok: false, reason: 'Signature-Input is not a structured-field dictionary' };
  const singleUse = carriesNonce(inputs);
  const signatures = remembered('s', signature, parseDictionary, () => !singleUse);
  if (signatures === undefined) return { ok: false, reason: 'Signature is not a structured-field dictionary' };
  const candidates: SignatureCandidate[] = [];
  for (const [label, member] of inputs) {
    if (!isInnerList(member)) continue;
    const parameters = member[1];
    if (parameters.get('tag') !== WEB_BOT_AUTH_TAG) continue;
    const value = signatures.get(label);
    if (value === undefined || isInnerList(value) || !(value[0] instanceof ArrayBuffer)) continue;
    const components: CoveredComponent[] = [];
    let wellFormed = true;
    for (const [name, componentParameters] of member[0]) {
      if (typeof name !== 'string') {
        wellFormed = false;
        break;
      }
      components.push({ name, parameters: componentParameters });
    }
    if (!wellFormed) continue;
    candidates.push({
      label,
      components,
      input: member,
      signature: new Uint8Array(value[0]),
      created: integerParameter(parameters.get('created')),
      expires: integerParameter(parameters.get('expires')),
      keyid: stringParameter(parameters.get('keyid')),
      alg: stringParameter(parameters.get('alg')),
      nonce: stringParameter(parameters.get('nonce')),
    });
    if (candidates.length === MAX_CANDIDATES) break;
  }
  if (candidates.length === 0) return { ok: false, reason: 'no signature tagged web-bot-auth' };
  return { ok: true, candidates };
}

function integerParameter(value: BareItem | undefined): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

function stringParameter(value: BareItem | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The `Signature-Agent` value a signature covers, or why there is none it can use. */
export type SignatureAgentResult =
  | {
      ok: true;
      /** The member value: the URL the agent names. */
      value: string;
      /** `dictionary` (current form) or `string` (the earlier bare sf-string form). */
      form: 'dictionary' | 'string';
      /** The dictionary member key (`undefined` in string form). */
      key?: string;
    }
  | { ok: false; code: 'malformed' | 'unsupported'; reason: string };

/**
 * Finds the `Signature-Agent` value a signature covers.
 *
 * - Dictionary form (`sig1="https://agent.example"`): the signature covers `"signature-agent";key="K"`, or the
 *   whole field `"signature-agent"` (RFC 9421 §2.1; Cloudflare's `web-bot-auth` default). The member keyed to
 *   the signature's own label is preferred (the protocol's rule); when the signature covers exactly one member
 *   under another key (or the whole field holds only one member), that member is used, as in the protocol's own
 *   test vectors (label `sig2`, member `agent2`) — what is covered is in the signature base, so it cannot be swapped.
 * - String form (`"https://agent.example"`): the signature must cover plain `"signature-agent"`.
 *
 * A member that carries parameters is ignored (-01 §5.2.1: none are defined; the earlier `type` parameter is gone),
 * so a signature covering one has no usable `Signature-Agent`.
 * @param header the combined `Signature-Agent` field value, or `null` when absent.
 */
export function readSignatureAgent(header: string | null, candidate: SignatureCandidate): SignatureAgentResult {
  if (header === null) return { ok: false, code: 'malformed', reason: 'no Signature-Agent field' };
  const covered = candidate.components.filter((c) => c.name === 'signature-agent');
  if (covered.length === 0) return { ok: false, code: 'malformed', reason: 'Signature-Agent is not covered by the signature' };

  if (header.trimStart().startsWith('"')) {
    if (!covered.some(coversWholeField)) {
      return { ok: false, code: 'malformed', reason: 'the string-form Signature-Agent is not covered as "signature-agent"' };
    }
    const item = remembered('a', header, parseItem);
    if (item === undefined) return { ok: false, code: 'malformed', reason: 'Signature-Agent is not a structured-field string' };
    return memberValue(item, undefined);
  }

  const dictionary = parsedDictionary(header);
  if (dictionary === undefined) return { ok: false, code: 'malformed', reason: 'Signature-Agent is not a structured-field dictionary' };
  const keyed = covered.map((c) => c.parameters.get('key')).filter((k): k is string => typeof k === 'string');
  let key = keyed.includes(candidate.label) ? candidate.label : keyed.length === 1 ? keyed[0] : undefined;
  if (key === undefined && keyed.length === 0 && covered.some(coversWholeField)) {
    // The whole field is covered (RFC 9421 §2.1: its value is the whole dictionary, as Cloudflare's web-bot-auth
    // signs by default): every member is protected. The member under the signature's label, or the only one.
    key = dictionary.has(candidate.label) ? candidate.label : dictionary.size === 1 ? [...dictionary.keys()][0] : undefined;
    if (key === undefined) return { ok: false, code: 'malformed', reason: "Signature-Agent has several members, none under the signature's label" };
  }
  if (key === undefined) {
    return {
      ok: false,
      code: 'malformed',
      reason:
        keyed.length === 0
          ? 'the dictionary-form Signature-Agent is not covered as "signature-agent" or "signature-agent";key=…'
          : 'the signature covers several Signature-Agent members, none under its own label',
    };
  }
  const member = dictionary.get(key);
  if (member === undefined) return { ok: false, code: 'malformed', reason: `Signature-Agent has no member "${key}"` };
  if (isInnerList(member)) return { ok: false, code: 'malformed', reason: `Signature-Agent member "${key}" is not a string` };
  return memberValue(member, key);
}

/**
 * Whether a covered `signature-agent` protects the whole field: plain (RFC 9421 §2.1), or re-serialized strictly
 * (`sf`, §2.1.1) or as byte sequences (`bs`, §2.1.3), which change the encoding but still cover every member.
 */
function coversWholeField(component: CoveredComponent): boolean {
  return [...component.parameters.keys()].every((name) => name === 'sf' || name === 'bs');
}

function memberValue(item: Item, key: string | undefined): SignatureAgentResult {
  const [value, parameters] = item;
  if (typeof value !== 'string') return { ok: false, code: 'malformed', reason: 'the Signature-Agent value is not a string' };
  // -01 §5.2.1 removed the `type` discovery parameter (directory, jwks_uri, cimd): members MUST NOT carry
  // parameters and a verifier MUST ignore a member that does. Ignoring the member covered leaves no key source.
  if (parameters.size > 0) {
    return {
      ok: false,
      code: 'unsupported',
      reason: `the Signature-Agent member carries parameters (${[...parameters.keys()].join(', ')}): ignored`,
    };
  }
  return key === undefined ? { ok: true, value, form: 'string' } : { ok: true, value, form: 'dictionary', key };
}
