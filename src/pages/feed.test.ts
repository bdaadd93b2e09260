import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { pagesModel } from '../../test/helpers/pages-model.js';
import { entryTagUri, renderAtomFeed } from './feed.js';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => name === 'entry' || name === 'link' });
const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('renderAtomFeed', () => {
  const model = pagesModel();
  const xml = renderAtomFeed(model.changelog, 'http://localhost:8080');
  const feed = parser.parse(xml).feed;

  it('is an Atom 1.0 feed with self and alternate links and the newest entry’s date as updated', () => {
    expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.id).toBe('http://localhost:8080/changelog.atom');
    expect(feed.updated).toBe('2026-03-02T00:00:00.000Z');
    expect(feed.link.map((l: Record<string, string>) => [l['@rel'], l['@href']])).toEqual([
      ['alternate', 'http://localhost:8080/changelog'],
      ['self', 'http://localhost:8080/changelog.atom'],
    ]);
    expect(feed.author.name).toBe('Syllabus');
  });

  it('has every entry newest first with a stable tag: id, its date, title, link, summary and HTML content', () => {
    expect(feed.entry).toHaveLength(model.changelog.entries.length);
    model.changelog.entries.forEach((e, i) => {
      const entry = feed.entry[i];
      expect(entry.id).toBe(`tag:localhost,${e.date}:changelog/${e.id}`);
      expect(entry.updated).toBe(`${e.date}T00:00:00.000Z`);
      expect(decode(entry.title['#text'])).toBe(e.title);
      expect(decode(entry.summary['#text'])).toBe(e.blurb);
      expect(entry.link[0]['@href']).toBe(`http://localhost:8080/changelog#${e.id}`);
      expect(entry.category['@term']).toBe(e.kind);
    });
    expect(feed.entry[0].content['#text']).toContain('<em>pipes</em>');
    expect(xml).not.toContain('<script');
  });

  it('keeps entry ids when the base URL’s port or the entry text changes', () => {
    const edited = { entries: model.changelog.entries.map((e) => ({ ...e, title: `${e.title}!`, body: 'Changed.' })) };
    const other = parser.parse(renderAtomFeed(edited, 'http://localhost:9999/')).feed;
    expect(other.entry.map((e: { id: string }) => e.id)).toEqual(feed.entry.map((e: { id: string }) => e.id));
    expect(entryTagUri('catalog.syllabus.dev', { id: 'x-2026-01-01', date: '2026-01-01' })).toBe(
      'tag:catalog.syllabus.dev,2026-01-01:changelog/x-2026-01-01',
    );
  });

  it('survives a CDATA terminator in the text', () => {
    const tricky = { entries: [{ ...model.changelog.entries[0]!, title: 'a ]]> b', body: 'x ]]> y' }] };
    const parsed = parser.parse(renderAtomFeed(tricky, 'http://localhost:8080')).feed;
    expect(decode(parsed.entry[0].title['#text'])).toBe('a ]]> b');
  });
});
