import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SWAGGER_UI_FILES } from '../pages/docs.js';
import { docsRepresentations, withoutSourceMapComment } from './docs-assets.js';

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

describe('docsRepresentations', () => {
  const reps = new Map(docsRepresentations({ publicBaseUrl: 'https://api.example.org/' }));

  it('serves the page, our init script and the swagger-ui-dist files under /docs/assets/', () => {
    expect([...reps.keys()].sort()).toEqual(
      [
        '/docs',
        '/docs/assets/init.js',
        '/docs/assets/swagger-ui.css',
        '/docs/assets/swagger-ui-bundle.js',
        '/docs/assets/favicon-16x16.png',
        '/docs/assets/favicon-32x32.png',
      ].sort(),
    );
    expect(decode(reps.get('/docs/assets/swagger-ui-bundle.js')!.body)).toContain('SwaggerUIBundle');
    expect(reps.get('/docs/assets/swagger-ui-bundle.js')!.body.byteLength).toBeGreaterThan(500_000);
    expect(decode(reps.get('/docs/assets/swagger-ui.css')!.body)).not.toContain('sourceMappingURL');
    expect(reps.get('/docs/assets/favicon-32x32.png')!.contentType).toBe('image/png');
  });

  it('has a page whose every script is a same-origin file, under a CSP without inline script', () => {
    const page = reps.get('/docs')!;
    const html = decode(page.body);
    expect(page.contentType).toBe('text/html; charset=utf-8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attrs, inline] of scripts) {
      expect(attrs).toMatch(/ src="\/docs\/assets\/[\w.-]+\.js"/);
      expect(inline!.trim()).toBe('');
    }
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]*)"/g)) expect(url).toMatch(/^\/(?!\/)/);
    const csp = page.headers['Content-Security-Policy']!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self' https://api.example.org;");
    expect(csp).toContain("default-src 'none'");
  });

  it('starts Swagger UI on /openapi.json with the validator badge and query configuration off', () => {
    const init = decode(reps.get('/docs/assets/init.js')!.body);
    expect(init).toContain('url: "/openapi.json"');
    expect(init).toContain('validatorUrl: null');
    expect(init).toContain('queryConfigEnabled: false');
    expect(init).not.toMatch(/https?:\/\//);
  });
});

describe('withoutSourceMapComment', () => {
  /** What the files were cut with before: the whole text decoded, the comment replaced, encoded again. */
  const reference = (bytes: Uint8Array) =>
    new TextEncoder().encode(new TextDecoder().decode(bytes).replace(/\n?\/[/*][#@] sourceMappingURL=[^\n]*\s*$/, '\n'));
  const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(b);

  it('gives the bytes the whole-text replacement gave, for every installed Swagger UI script and stylesheet', () => {
    const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    for (const name of Object.keys(SWAGGER_UI_FILES).filter((n) => n.endsWith('.js') || n.endsWith('.css'))) {
      const bytes = readFileSync(join(dir, name));
      expect(same(withoutSourceMapComment(bytes), reference(bytes)), name).toBe(true);
    }
  });

  it.each([
    'a{}\n/*# sourceMappingURL=a.css.map*/',
    'a{}\n\n/*# sourceMappingURL=a.css.map*/\n\n  ',
    'x();//# sourceMappingURL=x.js.map',
    'x();\n//# sourceMappingURL=x.js.map\n',
    '//@ sourceMappingURL=x.js.map',
    'é();\n//# sourceMappingURL=é.map\n',
    'x("sourceMappingURL=");\nend();\n',
    '//# sourceMappingURL=x.map\ncode();',
    'no comment at all',
  ])('matches the whole-text replacement on %j', (text) => {
    const bytes = new TextEncoder().encode(text);
    expect(decode(withoutSourceMapComment(bytes))).toBe(decode(reference(bytes)));
  });
});
