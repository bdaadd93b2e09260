/**
 * A content source that lets the preview see every load of the production source it wraps (the folder watcher
 * `npm start` uses), and that starts even on invalid content: its first tree is the first valid one, so the
 * server starts as soon as the writer fixes the content, and meanwhile the preview shows the problems.
 */
import { SourceError, type ContentSource, type ContentSourceListener, type ContentSourceStatus, type ContentUpdate } from '../source/types.js';

/** Wraps `inner`; see the module comment. `observe` is told every load, the first included, in order. */
export class ObservedSource implements ContentSource {
  readonly #inner: ContentSource;
  readonly #observe: (update: ContentUpdate) => void;
  #abandon: ((error: Error) => void) | undefined;

  constructor(inner: ContentSource, observe: (update: ContentUpdate) => void) {
    this.#inner = inner;
    this.#observe = observe;
  }

  get kind(): ContentSource['kind'] {
    return this.#inner.kind;
  }

  /**
   * Starts the inner source and resolves with its first valid load; loads after that go to `listener`.
   * @throws SourceError when the inner source cannot start, or when closed before the content was ever valid.
   */
  async start(listener: ContentSourceListener): Promise<ContentUpdate> {
    let started = false;
    let resolveFirst!: (update: ContentUpdate) => void;
    const firstValid = new Promise<ContentUpdate>((resolve, reject) => {
      resolveFirst = resolve;
      this.#abandon = reject;
    });
    firstValid.catch(() => undefined); // observed only when the first load is invalid
    const first = await this.#inner.start({
      onUpdate: (update) => {
        this.#observe(update);
        if (started) listener.onUpdate(update);
        else if (update.result.ok) {
          started = true;
          resolveFirst(update);
        }
      },
      onStatus: (status) => listener.onStatus(status),
      onSyncFailure: (reason) => listener.onSyncFailure?.(reason),
    });
    this.#observe(first);
    if (first.result.ok) {
      started = true;
      return first;
    }
    return firstValid;
  }

  refresh(reason: string): void {
    this.#inner.refresh(reason);
  }

  status(): ContentSourceStatus {
    return this.#inner.status();
  }

  async close(): Promise<void> {
    this.#abandon?.(new SourceError('the preview stopped before the content was valid'));
    await this.#inner.close();
  }
}
