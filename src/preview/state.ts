/**
 * What the preview shows right now, and its version: the content is served (`problems` undefined) or invalid (every
 * problem, located, with its code frame). Each change bumps the version and tells the subscribers (the open pages'
 * event streams, the terminal). A page carries the version it was rendered at, so one that missed an event while
 * it loaded still sees, when its stream opens, that it is out of date.
 */
import { randomUUID } from 'node:crypto';

/** One content problem as the error page shows it. `path` is relative to the content folder, `/`-separated. */
export interface ShownProblem {
  path: string;
  line: number;
  column: number;
  message: string;
  /** The lines around `line:column` with a caret under the column, without colour; undefined when the file cannot be read. */
  frame: string | undefined;
}

/** A change of what the preview shows: `reload` (the content was loaded and is served) or `problems`. */
export interface PreviewEvent {
  kind: 'reload' | 'problems';
  /** The version after the change. */
  version: string;
  /** With `problems`: every problem. */
  problems?: readonly ShownProblem[];
}

/** What a request sees, read once at its start. */
export interface PreviewSnapshot {
  version: string;
  /** Every problem of the latest load, or undefined while the latest load is served. */
  problems: readonly ShownProblem[] | undefined;
}

/** The preview's one mutable cell; see the module comment. */
export class PreviewState {
  /** Differs between runs, so a page rendered by a preview that has since restarted reloads. */
  readonly #run = randomUUID().slice(0, 8);
  #changes = 0;
  #problems: readonly ShownProblem[] | undefined;
  readonly #listeners = new Set<(event: PreviewEvent) => void>();

  /** The current version and problems. */
  snapshot(): PreviewSnapshot {
    return { version: this.#version(), problems: this.#problems };
  }

  /** The latest load is invalid: shows `problems` (at least one) instead of the pages. */
  fail(problems: readonly ShownProblem[]): void {
    this.#problems = problems;
    this.#emit({ kind: 'problems', version: this.#bump(), problems });
  }

  /** The latest load is served. */
  recover(): void {
    this.#problems = undefined;
    this.#emit({ kind: 'reload', version: this.#bump() });
  }

  /** Calls `listener` after every change. @returns a function that unsubscribes. */
  subscribe(listener: (event: PreviewEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #version(): string {
    return `${this.#run}.${this.#changes}`;
  }

  #bump(): string {
    this.#changes += 1;
    return this.#version();
  }

  #emit(event: PreviewEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
