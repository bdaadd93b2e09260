import { describe, expect, it } from 'vitest';
import { isPlainParagraph, singleParagraph } from './paragraph.js';
import { parseMarkdown } from './markdown.js';
import { seededRandom } from '../../test/helpers/seeded-random.js';

/** remark's verdict: the trimmed source of the one paragraph, or `undefined`. */
function paragraphOnTree(markdown: string): string | undefined {
  const blocks = parseMarkdown(markdown).children;
  if (blocks.length !== 1 || blocks[0]!.type !== 'paragraph') return undefined;
  const { start, end } = blocks[0].position!;
  return markdown.slice(start.offset, end.offset).trim();
}

describe('singleParagraph', () => {
  it('takes a plain paragraph without a parse, and leaves every other shape to remark', () => {
    expect(isPlainParagraph('\nShipped the *new* course.\nIt has `code` and a [link](/x).  \n\n')).toBe(true);
    for (const notCertain of ['', '\n  \n', '    indented code', '[a]: /url', 'one\n\ntwo', 'text\n---', 'text\n- item', 'a\r\nb', '<div>\nx'])
      expect(isPlainParagraph(notCertain), notCertain).toBe(false);
  });

  it('answers as remark does on thousands of random bodies', () => {
    const pool = [
      'Text.',
      'More *text* with `code`.',
      '',
      '   ',
      '    code',
      '\tTab',
      '# H',
      '## H',
      '---',
      '===',
      '- item',
      '* item',
      '+ x',
      '1. one',
    ];
    pool.push(
      '2) two',
      '> quote',
      '```',
      '~~~',
      '<div>',
      '<span>x</span>',
      '[a]: /u',
      '[link](/u) text',
      '_ _ _',
      '***',
      '  lazy',
      'x  ',
      '\\# escaped',
    );
    const { random, pick } = seededRandom(3);
    let plain = 0;
    for (let n = 0; n < 4000; n++) {
      const body = Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(pool)).join('\n') + (random() < 0.5 ? '\n' : '');
      const reference = paragraphOnTree(body);
      const result = singleParagraph(body, 5);
      if ('paragraph' in result) expect({ body, paragraph: result.paragraph }).toEqual({ body, paragraph: reference });
      else expect({ body, paragraph: undefined }).toEqual({ body, paragraph: reference });
      if (isPlainParagraph(body)) {
        plain++;
        expect(reference, body).toBeDefined();
      }
    }
    expect(plain).toBeGreaterThan(200);
  });
});
