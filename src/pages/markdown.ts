/**
 * Markdown → sanitised HTML with the unified stack: remark-parse → remark-rehype → rehype-sanitize →
 * rehype-stringify. Content comes from our own repository, but it is sanitised anyway (GitHub's schema; raw
 * HTML is dropped), and an image from another host becomes its alt text, so a page never makes a request to
 * another host (the CSP would block it anyway) nor tells one who reads it.
 */
import type { Element, Root, Text } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { SafeHtml } from './html.js';

/** A URL with a scheme (`https:`, `data:`, …) or protocol-relative (`//host/…`): not this origin's path. */
const OFF_ORIGIN = /^(?:[a-z][a-z0-9+.-]*:|\/\/|\\\\)/i;

/** Replaces every image whose source is not a same-origin path with its alt text. */
function sameOriginImagesOnly() {
  return (tree: Root) => {
    visit(tree, 'element', (node: Element, index, parent) => {
      if (node.tagName !== 'img' || parent === undefined || index === undefined) return;
      const src = String(node.properties['src'] ?? '').trim();
      if (src !== '' && !OFF_ORIGIN.test(src)) return;
      const alt: Text = { type: 'text', value: String(node.properties['alt'] ?? '') };
      parent.children.splice(index, 1, alt);
    });
  };
}

const parser = unified().use(remarkParse).freeze();
/** What Markdown may become: the one pipeline from a syntax tree to sanitised HTML. */
const sanitiser = unified().use(remarkRehype).use(sameOriginImagesOnly).use(rehypeSanitize).freeze();
const serialiser = unified().use(rehypeStringify).freeze();

/** Renders Markdown to sanitised HTML (raw HTML in the source is dropped, never passed through). */
export function markdownToHtml(markdown: string): SafeHtml {
  return hastToHtml(sanitisedTree(parser.parse(markdown)));
}

/**
 * A Markdown syntax tree (mdast) as the sanitised HTML tree (hast) {@link markdownToHtml} serialises: for a caller
 * that parsed the Markdown itself and marks elements before serialising ({@link hastToHtml}). Every element keeps
 * the `position` of the Markdown it came from.
 */
export function sanitisedTree(tree: MdastRoot): Root {
  return sanitiser.runSync(tree);
}

/** Serialises a hast tree (one {@link sanitisedTree} made, and elements of the caller's own) to HTML. */
export function hastToHtml(tree: Root): SafeHtml {
  return new SafeHtml(serialiser.stringify(tree).trim());
}

/** The HTML of each changelog entry or roadmap item body, made once per body object. */
const bodies = new WeakMap<{ readonly body: string }, SafeHtml>();

/**
 * {@link markdownToHtml} of `owner.body`, once per `owner`: the changelog page and the Atom feed show the same
 * entries, and each Markdown body costs milliseconds.
 */
export function bodyHtml(owner: { readonly body: string }): SafeHtml {
  let out = bodies.get(owner);
  if (out === undefined) bodies.set(owner, (out = markdownToHtml(owner.body)));
  return out;
}
