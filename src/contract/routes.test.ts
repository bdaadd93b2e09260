import { describe, expect, it } from 'vitest';
import { budgetOf, errorFormatOf, isDeprecatablePath, matchRoute, ROUTES, routeFor, routeNamed, routePath } from './routes.js';

describe('the route table', () => {
  it('names every route once and lists every path template once', () => {
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });

  it('gives every template parameter of a validated route a spec named like it', () => {
    for (const route of ROUTES) {
      if (route.params.length === 0) continue;
      expect(route.path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1))).toEqual(route.params.map((p) => p.name));
    }
  });

  it('lets only the referral check answer 503: it is computed, documented and never stored by a cache', () => {
    expect(ROUTES.filter((r) => 'unavailable' in r).map((r) => r.name)).toEqual(['referral']);
    expect(routeNamed('referral')).toMatchObject({ source: 'computed', budget: 'referral', cacheControl: 'no-store' });
    expect(routeNamed('referral').unavailable).toMatch(/^Referral codes cannot be checked: /);
  });

  it('documents exactly the JSON routes of the API and /health', () => {
    const documented = ROUTES.filter((r) => 'operation' in r).map((r) => r.path);
    expect(documented).toEqual(['/health', ...ROUTES.filter((r) => r.deprecatable).map((r) => r.path)]);
  });
});

describe('site files', () => {
  it('serve assets under hashed names as immutable for a year, the rest with a revalidated cache', () => {
    expect(routeNamed('pageAsset').cacheControl).toBe('public, max-age=31536000, immutable');
    expect(routeNamed('favicon').cacheControl).toBe('public, max-age=604800');
    expect(routeNamed('robots').cacheControl).toBe(routeNamed('home').cacheControl);
    expect(routeNamed('sitemap').cacheControl).toBe(routeNamed('home').cacheControl);
    for (const name of ['pageAsset', 'favicon', 'robots', 'sitemap'] as const) {
      expect(routeNamed(name)).toMatchObject({ source: 'page', methods: ['GET', 'HEAD'], errors: 'negotiated', deprecatable: false });
      expect('operation' in routeNamed(name)).toBe(false);
    }
  });
});

describe('matchRoute', () => {
  it.each([
    ['/v1', 'apiRoot', []],
    ['/v1/catalog', 'catalog', []],
    ['/v1/courses/python-basics', 'course', ['python-basics']],
    ['/v1/courses/Bad%21', 'course', ['Bad%21']],
    ['/courses/python-basics', 'coursePage', ['python-basics']],
    ['/docs/assets/init.js', 'docsAsset', ['init.js']],
    ['/', 'home', []],
    ['/assets/site.abc.css', 'pageAsset', ['site.abc.css']],
    ['/favicon.ico', 'favicon', []],
    ['/robots.txt', 'robots', []],
    ['/sitemap.xml', 'sitemap', []],
  ] as const)('%s is %s', (path, name, values) => {
    const match = matchRoute(path);
    expect(match?.route.name).toBe(name);
    expect(match?.values).toEqual(values);
  });

  it.each(['/v1/courses/', '/v1/courses/a/b', '/v1/', '/nope', '/courses/', '/health/'])('%s matches no route', (path) => {
    expect(matchRoute(path)).toBeUndefined();
  });

  it('shares one frozen match per fixed path, and matches each parameterised path afresh', () => {
    const first = matchRoute('/v1/lessons/py-one');
    expect(matchRoute('/v1/lessons/py-two')?.values).toEqual(['py-two']);
    expect(matchRoute('/v1/nope')).toBeUndefined();
    expect(matchRoute('/v1/lessons/py-one')).toEqual(first);
    expect(matchRoute('/v1/lessons/py-one')).not.toBe(first);
    expect(matchRoute('/v1/catalog')).toBe(matchRoute('/v1/catalog'));
    expect(Object.isFrozen(matchRoute('/v1/catalog'))).toBe(true);
  });

  it('finds the same route for a path with and without collecting its values', () => {
    const paths = ['/v1/lessons/a', '/v1/lessons/a/b', '/v1/lessons/', '/v1/lessons//', '//v1/lessons/a', '/v1/lessonsx/a', '/courses/a'];
    paths.push('/docs/assets/x.js', '/v1/referrals/c', '/v1/referrals/c/d', '', '/', '/v1', '/v1/catalog', '/v1/catalog/');
    const matched = paths.filter((path) => matchRoute(path) !== undefined);
    expect(matched.length).toBeGreaterThan(4);
    for (const path of matched) expect(routeFor(path), path).toBe(matchRoute(path)!.route);
  });

  it('fills a template with parameter values', () => {
    expect(routePath(routeNamed('lesson'), 'py-strings')).toBe('/v1/lessons/py-strings');
    expect(routePath(routeNamed('docsAsset'), '')).toBe('/docs/assets/');
  });

  it('fills every template of the table so that the path matches that route again, with those values', () => {
    for (const route of ROUTES) {
      const values = (route.path.match(/\{[^}]+\}/g) ?? []).map((_, i) => `value-${i}`);
      const path = routePath(route, ...values);
      expect(path, route.path).not.toMatch(/[{}]/);
      expect(matchRoute(path), route.path).toEqual({ route: expect.objectContaining({ path: route.path }), values });
    }
    // A route from elsewhere (not in the table) is filled the same way.
    expect(routePath({ ...routeNamed('lesson'), path: '/x/{a}/y/{b}' }, '1', '2')).toBe('/x/1/y/2');
  });
});

describe('budgetOf', () => {
  it.each([
    ['/health', 'exempt'],
    ['/openapi.json', 'exempt'],
    ['/docs', 'exempt'],
    ['/docs/assets/swagger-ui.abcdefgh12345678.css', 'read'],
    ['/docs/swagger-ui.css', 'read'],
    ['/docsx', 'read'],
    ['/v1/health', 'read'],
    ['/v1/catalog', 'read'],
    ['/v1/nope', 'read'],
    ['/', 'read'],
    ['/courses/python', 'read'],
    ['/assets/site.0123456789abcdef.css', 'exempt'],
    ['/assets/nope', 'exempt'],
    ['/favicon.ico', 'exempt'],
    ['/robots.txt', 'exempt'],
    ['/sitemap.xml', 'read'],
    ['/v1/referrals/ABCD', 'referral'],
    ['/v1/referrals/ABCD/', 'referral'],
    ['/v1/referrals/', 'referral'],
  ] as const)('%s is %s', (path, budget) => expect(budgetOf(path)).toBe(budget));
});

describe('errorFormatOf', () => {
  it.each([
    ['/v1/catalog', 'json'],
    ['/v1', 'json'],
    ['/v1/unknown', 'json'],
    ['/health', 'json'],
    ['/openapi.json', 'json'],
    ['/docs', 'json'],
    ['/docs/nope', 'json'],
    ['/', 'html'],
    ['/changelog', 'html'],
    ['/courses/nope', 'html'],
    ['/courses/', 'html'],
    ['/assets/nope.css', 'negotiated'],
    ['/favicon.ico', 'negotiated'],
    ['/sitemap.xml', 'negotiated'],
    ['/no-such-page', 'negotiated'],
  ] as const)('%s is %s', (path, format) => expect(errorFormatOf(path)).toBe(format));

  it('finds the route below a template prefix', () => {
    expect(routeFor('/v1/referrals/a/b')?.name).toBe('referral');
    expect(routeFor('/elsewhere')).toBeUndefined();
  });
});

describe('isDeprecatablePath', () => {
  it('accepts the API templates and their concrete paths, nothing else', () => {
    expect(isDeprecatablePath('/v1/courses/{course_id}')).toBe(true);
    expect(isDeprecatablePath('/v1/courses/python-basics')).toBe(true);
    expect(isDeprecatablePath('/v1/catalog')).toBe(true);
    expect(isDeprecatablePath('/health')).toBe(false);
    expect(isDeprecatablePath('/courses/python-basics')).toBe(false);
    expect(isDeprecatablePath('/v1/nope')).toBe(false);
  });
});
