import { describe, expect, it } from 'vitest';
import { ROUTES, routeNamed } from '../contract/routes.js';
import { requestLabels, requestSeriesBound } from './request-labels.js';

const catalog = routeNamed('catalog').path;
const course = routeNamed('course').path;
const labels = (route: string | undefined, method: string, status: number, clientKind = 'anonymous') =>
  requestLabels({ route, method, status, clientKind });

describe('requestLabels', () => {
  it('keeps a route, its method and a status the table foresees', () => {
    expect(labels(course, 'GET', 422)).toEqual({ route: course, method: 'GET', status: '422', client_kind: 'anonymous' });
    expect(labels(course, 'GET', 308).status).toBe('308');
    expect(labels(catalog, 'OPTIONS', 204)).toMatchObject({ method: 'OPTIONS', status: '204' });
  });

  it('labels a method its route does not answer `other`, whatever its name', () => {
    for (const method of ['POST', 'PROPFIND', 'X-ANYTHING'])
      expect(labels(catalog, method, 405)).toMatchObject({ route: catalog, method: 'other', status: '405' });
  });

  it('counts a path no route knows, or an answer the table does not foresee, as unmatched with its status class', () => {
    expect(labels(undefined, 'GET', 404)).toEqual({ route: 'unmatched', method: 'GET', status: '4xx', client_kind: 'anonymous' });
    expect(labels(undefined, 'BREW', 308)).toMatchObject({ method: 'other', status: '3xx' });
    // The catalog route has no parameter: a 422 there is no answer the table foresees.
    expect(labels(catalog, 'GET', 422)).toMatchObject({ route: 'unmatched', status: '4xx' });
    expect(labels(catalog, 'PUT', 200)).toMatchObject({ route: 'unmatched', method: 'other', status: '2xx' });
  });

  it('labels a kind outside the budgets’ `unclassified`', () => {
    expect(labels(catalog, 'GET', 500, 'unclassified').client_kind).toBe('unclassified');
    expect(labels(catalog, 'GET', 500, 'anything').client_kind).toBe('unclassified');
  });

  it('bounds the label sets by the table: at least one per route and kind, five kinds times the durations', () => {
    const { requests, durations } = requestSeriesBound();
    expect(requests).toBe(durations * 5);
    expect(durations).toBeGreaterThan(ROUTES.length * 3);
  });
});
