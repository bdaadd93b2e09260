/** Where an index of a text is, for problems placed in a file. */

/**
 * The 1-based line and column of the UTF-16 index `index` of `text`, lines ending at `\n`; `firstLine` is the line
 * the text starts on (a body after its frontmatter starts further down its file).
 */
export function positionAt(text: string, index: number, firstLine = 1): { line: number; column: number } {
  let line = firstLine;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: index - lineStart + 1 };
}
