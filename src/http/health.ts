/**
 * `/health`: what this instance says about itself, as a JSON object whose values are all strings
 * (`status: "ok"`, the content revision served, the last reload error, the rate-limit store's state, …).
 * Fields are set by whoever knows them (the index holder, the rate-limit store); the body is serialised when
 * a field changes, not per request, so a health check touches nothing but memory.
 */

/** The fields of `/health`. */
export type HealthFields = Readonly<Record<string, string>>;

const encoder = new TextEncoder();

/** Fields read when `/health` is asked (e.g. the rate-limit store's availability); must be cheap and never throw. */
export type HealthProvider = () => Record<string, string>;

/** Holds the `/health` body. */
export class HealthReport {
  #fields: Record<string, string>;
  #body: Uint8Array;
  readonly #providers: HealthProvider[] = [];
  #provided: Record<string, string> = {};

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

  /** Adds fields computed on each `/health` request; the body is re-serialised only when they change. */
  addProvider(provider: HealthProvider): void {
    this.#providers.push(provider);
  }

  /** The current fields. */
  get fields(): HealthFields {
    this.#refresh();
    return this.#fields;
  }

  /** The current body, UTF-8 JSON. */
  get body(): Uint8Array {
    this.#refresh();
    return this.#body;
  }

  #refresh(): void {
    if (this.#providers.length === 0) return;
    let changed = false;
    const provided: Record<string, string> = {};
    for (const provider of this.#providers) {
      for (const [k, v] of Object.entries(provider())) {
        if (k === 'status' || typeof v !== 'string') continue;
        provided[k] = v;
        if (this.#provided[k] !== v) changed = true;
      }
    }
    if (!changed && Object.keys(provided).length === Object.keys(this.#provided).length) return;
    this.#provided = provided;
    this.#fields = { ...this.#fields, ...provided };
    this.#body = encoder.encode(JSON.stringify(this.#fields));
  }
}
