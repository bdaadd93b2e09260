/**
 * Reuse of derived objects across loads: what makes an unchanged part of the content the very same object in the
 * next model, so that everything downstream can tell it unchanged by identity.
 */

/**
 * The derived objects of earlier builds, each with the inputs it was derived from: a build reuses every object
 * whose inputs are the very same objects (or equal strings and numbers). What each model object is derived from
 * is stated where it is derived (`src/content/build-model.ts`). The loader keeps an unchanged file's `ParsedFile`
 * object, so an edit re-derives the objects of the edited files and those that contain them, and nothing else;
 * downstream (the index) tells an unchanged part by identity (`===`) and reuses what it made of it. Derived
 * objects are shared between models: never mutate them.
 */
export class DerivationMemo {
  readonly #slots = new WeakMap<object, { inputs: readonly unknown[]; value: unknown }>();

  /** The object derived from `inputs` under `key` by the last build that asked, or `derive()` when they differ. */
  reuse<T>(key: object, inputs: readonly unknown[], derive: () => T): T {
    const slot = this.#slots.get(key);
    if (slot && sameItems(slot.inputs, inputs)) return slot.value as T;
    const value = derive();
    this.#slots.set(key, { inputs, value });
    return value;
  }
}

/** Whether two lists hold the same objects (`===`) in the same order. */
export function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
