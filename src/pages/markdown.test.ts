import { describe, expect, it } from 'vitest';
import { bodyHtml, markdownToHtml } from './markdown.js';

describe('markdownToHtml', () => {
  it('renders inline Markdown to HTML', () => {
    expect(markdownToHtml('Use `ls`, *pipes* and **flags**; see [docs](/docs).').value).toBe(
      '<p>Use <code>ls</code>, <em>pipes</em> and <strong>flags</strong>; see <a href="/docs">docs</a>.</p>',
    );
  });

  it('drops raw HTML, event handlers and javascript: links', () => {
    const out = markdownToHtml('Hi <script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3))').value;
    expect(out).not.toMatch(/<script|onerror|javascript:/i);
    expect(out).toContain('<a>x</a>');
  });

  it('turns an image from another host into its alt text and keeps same-origin images', () => {
    const out = markdownToHtml('![pixel](https://tracker.example/p.png) ![proto](//cdn.example/x.png) ![logo](/assets/favicon.svg)').value;
    expect(out).not.toContain('example');
    expect(out).toContain('pixel');
    expect(out).toContain('proto');
    expect(out).toContain('<img src="/assets/favicon.svg" alt="logo">');
  });
});

describe('bodyHtml', () => {
  it("renders an entry's body once, as markdownToHtml does", () => {
    const entry = { body: 'Loop over *lists*.' };
    const html = bodyHtml(entry);
    expect(html.value).toBe(markdownToHtml(entry.body).value);
    expect(bodyHtml(entry)).toBe(html);
    expect(bodyHtml({ body: 'Other **text**.' }).value).toBe('<p>Other <strong>text</strong>.</p>');
  });
});
