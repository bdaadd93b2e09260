import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SWAGGER_UI_FILES } from '../pages/docs.js';
import { docsRepresentations, withoutSourceMapComment } from './docs-assets.js';
import { nodeCodec } from './node-codec.js';

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

describe('docsRepresentations', () => {
  const reps = new Map(docsRepresentations({ publicBaseUrl: 'https://api.example.org/' }));
  /** The path a file is served at, found by its own name. */
  const pathOf = (file: string) => {
    const dot = file.lastIndexOf('.');
    return [...reps.keys()].find((p) => p.startsWith(`/docs/assets/${file.slice(0, dot)}.`) && p.endsWith(file.slice(dot)))!;
  };

  it('serves the page, our init script and the swagger-ui-dist files under /docs/assets/, named by their bytes', () => {
    const files = ['init.js', ...Object.keys(SWAGGER_UI_FILES)];
    expect(reps.size).toBe(files.length + 1);
    expect(reps.has('/docs')).toBe(true);
    for (const file of files) {
      const path = pathOf(file);
      const [stem, ext] = [file.slice(0, file.lastIndexOf('.')), file.slice(file.lastIndexOf('.'))];
      // The assets' rule: the first 16 characters of the SHA-256 of the bytes, base64url.
      expect(path).toBe(`/docs/assets/${stem}.${nodeCodec.digest(reps.get(path)!.body).slice(0, 16)}${ext}`);
      expect(reps.has(`/docs/assets/${file}`), file).toBe(false);
    }
    const bundle = reps.get(pathOf('swagger-ui-bundle.js'))!;
    expect(decode(bundle.body)).toContain('SwaggerUIBundle');
    expect(bundle.body.byteLength).toBeGreaterThan(500_000);
    expect(decode(reps.get(pathOf('swagger-ui.css'))!.body)).not.toContain('sourceMappingURL');
    expect(reps.get(pathOf('favicon-32x32.png'))!.contentType).toBe('image/png');
  });

  it('has a page that links every file by its hashed name', () => {
    const html = decode(reps.get('/docs')!.body);
    const linked = [...html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]*)"/g)].map((m) => m[1]!);
    expect(linked.sort()).toEqual([...reps.keys()].filter((p) => p !== '/docs').sort());
  });

  it('has a page whose every script is a same-origin file, under a CSP without inline script', () => {
    const page = reps.get('/docs')!;
    const html = decode(page.body);
    expect(page.contentType).toBe('text/html; charset=utf-8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attrs, inline] of scripts) {
      expect(attrs).toMatch(/ src="\/docs\/assets\/[\w.-]+\.[\w-]{16}\.js"/);
      expect(inline!.trim()).toBe('');
    }
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]*)"/g)) expect(url).toMatch(/^\/(?!\/)/);
    const csp = page.headers['Content-Security-Policy']!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self' https://api.example.org;");
    expect(csp).toContain("default-src 'none'");
  });

  it('starts Swagger UI on /openapi.json with the validator badge and query configuration off', () => {
    const init = decode(reps.get(pathOf('init.js'))!.body);
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
