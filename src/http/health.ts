/**
 * `/health`: what this instance says about itself, as a JSON object whose values are all strings
 * (`status: "ok"`, the content revision served, the last reload error, the rate-limit store's state, …).
 * Fields are set by whoever knows them (the index holder, the rate-limit store); the body is serialised when
 * a field changes, not per request, so a health check touches nothing but memory.
 */

/** The fields of `/health`. */
export type HealthFields = Readonly<Record<string, string>>;

const encoder = new TextEncoder();

/** Holds the `/health` body. */
export class HealthReport {
  #fields: Record<string, string>;
  #body: Uint8Array;

  /** @param initial fields besides `status`, which is always `"ok"` while the instance serves. */
  constructor(initial: Record<string, string> = {}) {
    this.#fields = { status: 'ok', ...initial };
    this.#body = encoder.encode(JSON.stringify(this.#fields));
  }

  /**
   * Sets or replaces some fields (an empty string is a value, e.g. "no error").
   * @throws TypeError when a value is not a string or a field named `status` is given.
   */
  set(fields: Record<string, string>): void {
    for (const [k, v] of Object.entries(fields)) {
      if (typeof v !== 'string') throw new TypeError(`/health field ${k} must be a string`);
      if (k === 'status') throw new TypeError('/health status is always "ok"');
    }
    this.#fields = { ...this.#fields, ...fields };
    this.#body = encoder.encode(JSON.stringify(this.#fields));
  }

  /** The current fields. */
  get fields(): HealthFields {
    return this.#fields;
  }

  /** The current body, UTF-8 JSON. */
  get body(): Uint8Array {
    return this.#body;
  }
}
