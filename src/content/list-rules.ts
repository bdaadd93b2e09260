/** Rules on a list of ids in a parent file (catalog → courses, course → classes, class → lessons). */

/** Reports a problem at a frontmatter path. */
export type ReportAt = (path: readonly (string | number)[], message: string) => void;

/**
 * Reports every id listed more than once, at the repeated item.
 * @param key the frontmatter key holding the list (`['classes']`)
 * @param what the kind of id, for messages (`class`)
 * @param where the listing file, for messages (`this course`)
 */
export function listRules(ids: readonly string[], key: readonly string[], what: string, where: string, report: ReportAt): void {
  const first = new Map<string, number>();
  ids.forEach((id, i) => {
    const earlier = first.get(id);
    if (earlier !== undefined) report([...key, i], `duplicate ${what} id "${id}": ${where} already lists it at ${key.join('.')}[${earlier}]`);
    else first.set(id, i);
  });
}
