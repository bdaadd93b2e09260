/**
 * The one mutable cell of the serving path: the current index, replaced by a single assignment when a reload
 * succeeds, plus what `/health` reports about reloads. Requests read `current` once and use that index to the
 * end, so a swap never mixes two revisions in one response.
 */
import type { CatalogIndex } from './types.js';

/** What `/health` shows about the index: every value a string. */
export interface IndexStatus {
  /** Content revision served. */
  revision: string;
  /** ISO 8601 time the served index was built. */
  built_at: string;
  /** The last reload's failure (problems, one per line), or `""` after a successful reload. */
  last_reload_error: string;
  /** ISO 8601 time of the last reload attempt, or `""` before the first. */
  last_reload_at: string;
}

/** Holds the served index; see the module comment. */
export class IndexHolder {
  #current: CatalogIndex;
  #lastReloadError = '';
  #lastReloadAt = '';
  readonly #listeners = new Set<(status: IndexStatus) => void>();

  constructor(initial: CatalogIndex) {
    this.#current = initial;
  }

  /** The index to serve this request from. */
  get current(): CatalogIndex {
    return this.#current;
  }

  /** Replaces the served index (one assignment) and clears the last reload error. */
  swap(next: CatalogIndex, at: Date = new Date()): void {
    this.#current = next;
    this.#lastReloadError = '';
    this.#lastReloadAt = at.toISOString();
    this.#notify();
  }

  /**
   * Replaces the served index by one of the same content published at a later instant (scheduled publishing:
   * entries whose date has come). The reload status is unchanged; listeners are told (`built_at` changed).
   */
  publish(next: CatalogIndex): void {
    this.#current = next;
    this.#notify();
  }

  /**
   * Replaces the served index by an equivalent one (the same revision, e.g. with its bodies now compressed) if
   * `from` is still the one served; a reload that swapped in meanwhile wins. Reload status is unchanged.
   * @returns whether `to` is now served.
   */
  upgrade(from: CatalogIndex, to: CatalogIndex): boolean {
    if (this.#current !== from) return false;
    this.#current = to;
    return true;
  }

  /** Records a failed reload; the current index stays served. */
  recordReloadError(message: string, at: Date = new Date()): void {
    this.#lastReloadError = message;
    this.#lastReloadAt = at.toISOString();
    this.#notify();
  }

  /** The fields `/health` reports about the index. */
  status(): IndexStatus {
    return {
      revision: this.#current.revision,
      built_at: this.#current.builtAt,
      last_reload_error: this.#lastReloadError,
      last_reload_at: this.#lastReloadAt,
    };
  }

  /** Calls `listener` after every swap or recorded error. @returns a function that unsubscribes. */
  subscribe(listener: (status: IndexStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(): void {
    const s = this.status();
    for (const l of this.#listeners) l(s);
  }
}
