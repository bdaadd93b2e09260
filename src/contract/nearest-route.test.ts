import { describe, expect, it } from 'vitest';
import { NEAREST_ROUTE_MAX_PATH, nearestRoute } from './nearest-route.js';

describe('nearestRoute', () => {
  it.each([
    ['/v1/courses', '/v1/courses/{course_id}'],
    ['/v1/lessons', '/v1/lessons/{lesson_id}'],
    ['/v1/lesson/x', '/v1/lessons/{lesson_id}'],
    ['/v1/course/python-foundations', '/v1/courses/{course_id}'],
    ['/v1/courses/python-foundations/extra', '/v1/courses/{course_id}'],
    ['/v1/catalogue', '/v1/catalog'],
    ['/v1/roadmaps', '/v1/roadmap'],
    ['/v1/changes', '/v1/changelog'],
    ['/v1/referral/WELCOME-2026', '/v1/referrals/{code}'],
    ['/v1/healthz', '/v1/health'],
    ['/v1/zzzz', '/v1'],
  ])('%s → %s', (path, route) => expect(nearestRoute(path)).toBe(route));

  it('computes no distance for a path longer than the bound: the API root', () => {
    const long = `/v1/lessons/${'a'.repeat(NEAREST_ROUTE_MAX_PATH)}`;
    expect(nearestRoute(long)).toBe('/v1');
    expect(nearestRoute(long.slice(0, NEAREST_ROUTE_MAX_PATH))).toBe('/v1/lessons/{lesson_id}');
  });
});
