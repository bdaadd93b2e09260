/**
 * Reuse of derived objects across loads: what makes an unchanged part of the content the very same object in the
 * next model, so that everything downstream can tell it unchanged by identity.
 */

/**
 * The derived objects of earlier builds, each with the inputs it was derived from, so that a build reuses every
 * object whose inputs are the very same objects: a lesson is derived from its file alone; a class from its file
 * and its lessons; a course from its file and its classes; the catalog from its file and its courses; the
 * changelog from its entry files; the roadmap from its file and its item files. The loader keeps an unchanged
 * file's `ParsedFile` object, so an edit re-derives the edited file's object and those that contain it, and
 * nothing else: this is the one statement of what a change affects. Downstream (the index) tells an unchanged
 * part by identity (`===`) and reuses what it made of it. Derived objects are shared between models: never
 * mutate them.
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
