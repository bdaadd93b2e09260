/** The Markdown syntax tree (CommonMark, unified + remark-parse, no extensions) of a file's body. */
import type { Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const parser = unified().use(remarkParse);

/** Parses Markdown into an mdast tree. Positions are 1-based lines and columns within `markdown`. */
export function parseMarkdown(markdown: string): Root {
  return parser.parse(markdown);
}
