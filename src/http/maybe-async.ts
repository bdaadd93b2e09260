/**
 * Steps and stores answer at once when they can and with a promise when they must wait (a signature check, Redis),
 * so the common request costs no microtask. This tells the two apart.
 */

/**
 * Whether `value` is a promise or another thenable (a value that is not ready yet), rather than the value itself.
 * A thenable test, not `instanceof Promise`: a step's result may come from another realm's or library's promises.
 */
export function isPromise<T>(value: unknown): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
