/**
 * Old ids as anchor targets. A class, lesson or changelog entry renamed with `aliases` in its frontmatter keeps
 * its old links: `/courses/<course>#class-<old id>`, `/changelog#<old id>`. A fragment never reaches the server,
 * so no redirect can help; the page itself holds an empty element with each old id, inside the renamed item.
 */
import { byCodePoint } from '../contract/order.js';
import { html, type SafeHtml } from './html.js';

/** Current id → the old ids it was published under, in code point order (the same content, the same bytes). */
export type OldIds = ReadonlyMap<string, readonly string[]>;

/** No old ids. */
export const NO_OLD_IDS: OldIds = new Map();

/** Inverts an alias map of the content model (old id → current id). */
export function oldIdsByCurrent(aliases: ReadonlyMap<string, string> | undefined): OldIds {
  if (aliases === undefined || aliases.size === 0) return NO_OLD_IDS;
  const out = new Map<string, string[]>();
  for (const [old, current] of aliases) {
    const list = out.get(current);
    if (list === undefined) out.set(current, [old]);
    else list.push(old);
  }
  for (const list of out.values()) list.sort(byCodePoint);
  return out;
}

/**
 * The anchor targets of the old ids of `current`: `<span id="<prefix><old id>" data-old-id="<old id>"></span>`
 * each (empty: nothing shows, nothing is read aloud; the browser scrolls to where the item starts).
 * @param prefix what the page puts before an id of this kind in an element id (`class-` on a course page).
 * @param taken element ids the page gives other elements: an old id that would repeat one is left out (ids are
 *   unique in a document; the live element keeps the fragment).
 */
export function oldAnchors(old: OldIds, current: string, prefix = '', taken?: ReadonlySet<string>): SafeHtml[] {
  const anchors: SafeHtml[] = [];
  for (const id of old.get(current) ?? []) {
    if (taken?.has(prefix + id) !== true) anchors.push(html`<span id="${prefix}${id}" data-old-id="${id}"></span>`);
  }
  return anchors;
}

/**
 * The old ids of the given current ids as one string, for a page's render inputs (compared by value): a page is
 * rendered again when an old id pointing into it is added or removed.
 */
export function oldIdsKey(old: OldIds, currents: Iterable<string>): string {
  if (old.size === 0) return '';
  const parts: string[] = [];
  for (const current of currents) {
    const ids = old.get(current);
    if (ids !== undefined) parts.push(`${current}<${ids.join(',')}`);
  }
  return parts.join(' ');
}
