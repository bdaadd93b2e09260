import { describe, expect, it } from 'vitest';
import { HealthReport } from './health.js';

const parse = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b)) as Record<string, string>;

describe('HealthReport', () => {
  it('always says status ok, and serialises fields once per change', () => {
    const h = new HealthReport({ revision: 'abc' });
    expect(parse(h.body)).toEqual({ status: 'ok', revision: 'abc' });
    const before = h.body;
    expect(h.body).toBe(before);
    h.set({ last_reload_error: 'x.md:1:1: bad' });
    expect(h.body).not.toBe(before);
    expect(parse(h.body)).toEqual({ status: 'ok', revision: 'abc', last_reload_error: 'x.md:1:1: bad' });
  });

  it('refuses non-string values and a status of its own', () => {
    const h = new HealthReport();
    expect(() => h.set({ n: 1 as unknown as string })).toThrow(TypeError);
    expect(() => h.set({ status: 'down' })).toThrow(/always "ok"/);
  });

  it('reads providers on each request but re-serialises only when they change', () => {
    let store = 'ok';
    const h = new HealthReport();
    h.addProvider(() => ({ rate_limit_store_status: store }));
    const first = h.body;
    expect(parse(first).rate_limit_store_status).toBe('ok');
    expect(h.body).toBe(first);
    store = 'unavailable';
    expect(parse(h.body).rate_limit_store_status).toBe('unavailable');
    expect(h.fields.rate_limit_store_status).toBe('unavailable');
  });
});
