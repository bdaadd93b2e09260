import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { parseSimpleYaml } from './simple-yaml.js';
import { seededRandom } from '../../test/helpers/seeded-random.js';

/** What the full parser makes of `source`, or `undefined` when it reports an error. */
function reference(source: string): unknown {
  const doc = parseDocument(source, { prettyErrors: false, uniqueKeys: true, strict: true });
  return doc.errors.length > 0 ? undefined : doc.toJS();
}

describe('parseSimpleYaml', () => {
  it('reads the usual frontmatter', () => {
    const source =
      "\ntitle: \"Lists: the basics\"\nblurb: Python's lists, in practice.\nlang: python\norder: 12\nlessons: [a-b, c]\nsoon:\n  - Topic one\n  - 'Topic: two'\n";
    expect(parseSimpleYaml(source)).toEqual({
      title: 'Lists: the basics',
      blurb: "Python's lists, in practice.",
      lang: 'python',
      order: 12,
      lessons: ['a-b', 'c'],
      soon: ['Topic one', 'Topic: two'],
    });
    expect(parseSimpleYaml(source)).toEqual(reference(source));
  });

  it('leaves anything uncertain to the full parser', () => {
    for (const source of [
      'color: #fff',
      'a: yes',
      'a: null',
      'a: 012',
      'a: 1.5',
      'a: 3 ways',
      'a: b: c',
      'a: b # c',
      'a: "x\\"y"',
      'a:',
      'a:\nb: c',
      'a: [b: c]',
      'a: [1, 2]',
      'a: {b: c}',
      'a:\n  - b: c',
      'a: b\na: c',
      'a: b\n  c',
      '# comment',
      'a: |\n  x',
      'a: >\n  x',
      'a: &x b',
      'a: *x',
      'a: !tag b',
      '---',
      'a: "b',
      "a: 'b",
      'a: b\r\nc: d',
      'a:\n- b\n  - c',
      'a: \tb',
      '__proto__: x',
      'a: [b, c',
      'a:\n  -b',
      'a: b\n\u00a0\nc: d',
      'a:b',
    ]) {
      expect(parseSimpleYaml(source), source).toBeUndefined();
    }
  });

  it('agrees with the yaml library on thousands of generated documents', () => {
    const keys = ['title', 'blurb', 'lang', 'order', 'lessons', 'title', 'a_b', 'x-y'];
    const values = [
      'Plain words',
      "Python's lists",
      'Ends with colon:',
      'has: colon',
      'hash # here',
      'hash#inside',
      '"quoted"',
      "'single'",
      '"with \\"escape\\""',
      '"a: b"',
      "'it''s'",
      '12',
      '0',
      '012',
      '-1',
      '1.5',
      '1e3',
      'true',
      'no',
      'null',
      '~',
      '[a, b]',
      '[]',
      '[a, "b c"]',
      '[a: b]',
      '[1, 2]',
      '[a, [b]]',
      '{a: b}',
      '#fff',
      '"#fff"',
      'é accents',
      'Ünïcode',
      '&anchor x',
      '*alias',
      '!!str 12',
      '|',
      '>',
      'x   ',
      'a - b',
      '- dash',
      '? q',
      '%pct',
      '@at',
      '`tick`',
      '[a, b',
      'a]',
      'a, b',
    ];
    const itemLines = ['  - item', '  - "quoted item"', '  - 3', '  - a: b', '- top', '    - deeper', '  -', '  - [x]', '  - Topic: two'];
    const { random, pick } = seededRandom(11);
    let answered = 0;
    for (let n = 0; n < 4000; n++) {
      const lines: string[] = [''];
      for (let k = 0; k < 1 + Math.floor(random() * 5); k++) {
        if (random() < 0.25) {
          lines.push(`${pick(keys)}:`);
          for (let i = 0; i < Math.floor(random() * 3); i++) lines.push(pick(itemLines));
        } else lines.push(`${pick(keys)}: ${pick(values)}`);
        if (random() < 0.05) lines.push('');
      }
      const source = lines.join('\n');
      const fast = parseSimpleYaml(source);
      if (fast === undefined) continue;
      answered++;
      expect({ source, data: fast }).toEqual({ source, data: reference(source) });
    }
    expect(answered).toBeGreaterThan(400);
  });
});
