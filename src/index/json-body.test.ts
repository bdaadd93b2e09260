import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadContent } from '../content/loader.js';
import { ROUTE_BODIES } from './bodies.js';
import { jsonBody } from './json-body.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

afterEach(() => vi.restoreAllMocks());

describe('jsonBody', () => {
  it('gives JSON.stringify’s bytes for every body of the bundled content', async () => {
    const result = await loadContent('content');
    if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
    let bodies = 0;
    for (const bodiesOf of Object.values(ROUTE_BODIES)) {
      const values = 'one' in bodiesOf ? [bodiesOf.one(result.model, '')] : Array.from(bodiesOf.each(result.model), ([, body]) => body);
      for (const body of values) {
        expect(text(jsonBody(body))).toBe(JSON.stringify(body));
        bodies++;
      }
    }
    expect(bodies).toBeGreaterThan(20);
  });

  it('follows JSON.stringify on values the model does not hold but a body could', () => {
    const odd: unknown[] = [
      {},
      [],
      { a: undefined, b: () => 1, c: Symbol('s'), d: 1 },
      { list: [undefined, () => 1, Symbol('s'), null, 1, 'two', { three: 3 }, [4]], after: true },
      { list: [], nested: { list: [{ x: 1 }] } },
      { date: new Date(0), list: [new Date(1)], withToJson: { toJSON: () => 'custom' } },
      { toJSON: () => ({ replaced: true }) },
      Object.assign(Object.create(null) as object, { nullProto: ['é', '\u2028', '\ud83d\ude00', '"\\', { é: 'ü' }] }),
      { 'key "quoted"\n': [{ k: 1 }], '': 0, 1: 'numeric key first' },
      ['top', 'level', { array: true }],
      'a string',
      42,
      null,
      false,
    ];
    for (const value of odd) {
      // Each object in an array property a body of its own first, so that the value is put together from parts.
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const property of Object.values(value))
          if (Array.isArray(property)) for (const element of property) if (typeof element === 'object' && element !== null) jsonBody(element);
      }
      expect(text(jsonBody(value))).toBe(JSON.stringify(value));
    }
  });

  it('builds a body from the bytes of the bodies it contains, serialising only the element it has not met', () => {
    const courses = [
      { id: 'a', classes: [{ id: 'x' }] },
      { id: 'b', classes: [] },
      { id: 'c', classes: [{ id: 'y' }] },
    ];
    for (const course of courses) jsonBody(course); // the course route's bodies
    const changed = { id: 'b', classes: [{ id: 'z' }] };
    const catalog = { courses: [courses[0], changed, courses[2]] };
    const stringify = vi.spyOn(JSON, 'stringify');
    const bytes = jsonBody(catalog);
    const serialised = stringify.mock.calls.map(([value]) => value);
    expect(serialised).toContain(changed);
    expect(serialised).not.toContain(courses[0]);
    expect(serialised).not.toContain(courses[2]);
    stringify.mockRestore();
    expect(text(bytes)).toBe(JSON.stringify(catalog));
  });

  it('gives the same bytes again for the same object, without serialising it', () => {
    const body = { courses: [{ id: 'a' }] };
    const first = jsonBody(body);
    const stringify = vi.spyOn(JSON, 'stringify');
    expect(jsonBody(body)).toBe(first);
    expect(stringify).not.toHaveBeenCalled();
  });

  it('throws for a value with no JSON form, like JSON.stringify', () => {
    expect(() => jsonBody(undefined)).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle.self = [cycle];
    expect(() => jsonBody(cycle)).toThrow(TypeError);
  });
});
