/**
 * Test helper: validates response bodies against an OpenAPI 3.1 document (the one served at `/openapi.json`)
 * with ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses). Resolves `#/components/responses/*` references itself
 * and lets ajv resolve schema `$ref`s inside the document.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** Decodes a JSON pointer (`#/a/b~1c`) and returns what it points at in `root`. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (!pointer.startsWith('#')) throw new Error(`not a local reference: ${pointer}`);
  const parts = pointer
    .slice(1)
    .split('/')
    .slice(1)
    .map((p) => decodeURIComponent(p).replaceAll('~1', '/').replaceAll('~0', '~'));
  let node: unknown = root;
  for (const part of parts) {
    if (node === null || typeof node !== 'object' || !(part in (node as Json))) throw new Error(`unresolved reference ${pointer}`);
    node = (node as Json)[part];
  }
  return node;
}

/** Follows `$ref` until a non-reference object; returns it and its pointer. */
export function deref(doc: unknown, value: unknown, pointer: string): { value: Json; pointer: string } {
  let current = value as Json;
  let at = pointer;
  for (let hops = 0; typeof current?.$ref === 'string'; hops++) {
    if (hops > 10) throw new Error(`reference loop at ${pointer}`);
    at = current.$ref;
    current = resolvePointer(doc, at) as Json;
  }
  return { value: current, pointer: at };
}

const escape = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** Validators for the responses documented in one OpenAPI document. */
export class OpenApiResponses {
  readonly #ajv: Ajv2020;
  readonly #doc: Json;
  static readonly #ID = 'urn:syllabus:openapi';

  constructor(doc: unknown) {
    this.#doc = doc as Json;
    // strict off: the document's own keywords (paths, info, example, …) are not schema keywords.
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema(this.#doc, OpenApiResponses.#ID);
  }

  /**
   * The documented response object of `method route` for `status`, dereferenced.
   * @throws Error when the document does not list that status for that operation.
   */
  response(route: string, method: string, status: number): { value: Json; pointer: string } {
    const responses = (((this.#doc.paths as Json)[route] as Json | undefined)?.[method] as Json | undefined)?.responses as Json | undefined;
    if (!responses) throw new Error(`no operation ${method.toUpperCase()} ${route} in the document`);
    const raw = responses[String(status)];
    if (!raw) throw new Error(`${method.toUpperCase()} ${route} does not document status ${status}`);
    return deref(this.#doc, raw, `#/paths/${escape(route)}/${method}/responses/${status}`);
  }

  /** A validator of the JSON body documented for `method route` answering `status`. */
  bodyValidator(route: string, method: string, status: number, contentType = 'application/json'): ValidateFunction {
    const { pointer, value } = this.response(route, method, status);
    const content = value.content as Json | undefined;
    if (!content?.[contentType]) throw new Error(`${method.toUpperCase()} ${route} ${status} documents no ${contentType} body`);
    const key = `${OpenApiResponses.#ID}${pointer}/content/${escape(contentType)}/schema`;
    const validate = this.#ajv.getSchema(key);
    if (!validate) throw new Error(`ajv could not compile ${key}`);
    return validate;
  }

  /** Validates `body`; returns a readable list of problems (empty when valid). */
  check(route: string, method: string, status: number, body: unknown): string[] {
    const validate = this.bodyValidator(route, method, status);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }

  /** The header names the response declares, with whether each is `required`. */
  headers(route: string, method: string, status: number): Map<string, boolean> {
    const { value } = this.response(route, method, status);
    const out = new Map<string, boolean>();
    for (const [name, h] of Object.entries((value.headers as Json | undefined) ?? {})) {
      out.set(name, deref(this.#doc, h, '#').value.required === true);
    }
    return out;
  }
}
