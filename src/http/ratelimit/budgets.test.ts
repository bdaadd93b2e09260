import { describe, expect, it } from 'vitest';
import { addressCeiling, decide, DEFAULT_LIMITS, type BudgetLimits, type RequestIdentity } from './budgets.js';
import { MemoryStore } from './memory-store.js';

const small: BudgetLimits = { verified: 8, declared: 4, browser: 4, anonymous: 3, referrals: 5 };

function setup(limits: BudgetLimits = small, start = 5_000_000) {
  const clock = { t: start };
  const store = new MemoryStore({ now: () => clock.t });
  const ask = (who: Partial<RequestIdentity> = {}) => decide(store, limits, { bucket: '203.0.113.7', kind: 'anonymous', pathClass: 'read', ...who });
  return { clock, store, ask };
}

describe('decide', () => {
  it('allows the budget, then refuses, with exact headers', async () => {
    const { ask, clock } = setup();
    expect(await ask()).toEqual({ allowed: true, state: { limit: 3, remaining: 2, resetSeconds: 60, windowSeconds: 60 } });
    clock.t += 1500;
    expect((await ask()).state).toEqual({ limit: 3, remaining: 1, resetSeconds: 59, windowSeconds: 60 });
    expect((await ask()).state.remaining).toBe(0);
    const refused = await ask();
    expect(refused.allowed).toBe(false);
    expect(refused.state).toEqual({ limit: 3, remaining: 0, resetSeconds: 59, windowSeconds: 60 });
  });

  it('rounds the reset up and never reports 0 inside a live window', async () => {
    const { ask, clock } = setup();
    await ask();
    clock.t += 58_999; // 1001 ms left
    expect((await ask()).state.resetSeconds).toBe(2);
    clock.t += 1; // 1000 ms left
    expect((await ask()).state.resetSeconds).toBe(1);
    clock.t += 999; // 1 ms left
    expect((await ask()).state.resetSeconds).toBe(1);
  });

  it('a client that waits Retry-After seconds after any 429 is allowed, at every offset in the window', async () => {
    for (let offset = 0; offset < 60_000; offset += 997) {
      const { ask, clock } = setup();
      await ask();
      clock.t += offset;
      let refused = await ask();
      while (refused.allowed) refused = await ask();
      clock.t += refused.state.resetSeconds * 1000;
      const retry = await ask();
      expect(retry.allowed, `offset ${offset}`).toBe(true);
    }
  });

  it('budgets each kind behind one address, under one ceiling across kinds: the largest budget it qualifies for', async () => {
    const { ask } = setup();
    for (let i = 0; i < 3; i++) await ask({ kind: 'anonymous' });
    expect((await ask({ kind: 'anonymous' })).allowed).toBe(false); // the anonymous budget (3)
    // 4 requests so far count against the address's ceiling across unverified kinds: max(4, 4, 3) = 4.
    expect(await ask({ kind: 'browser' })).toMatchObject({ allowed: false, state: { limit: 4, remaining: 0 }, spent: 'address' });
    expect(await ask({ kind: 'declared' })).toMatchObject({ allowed: false, spent: 'address' });
    // A verified request qualifies for the verified budget: its ceiling is 8, of which 6 are counted.
    expect(await ask({ kind: 'verified' })).toMatchObject({ allowed: true, state: { limit: 8, remaining: 1 } });
  });

  it('switching User-Agent never adds the kinds up: an address gets at most its largest budget in a window', async () => {
    const { ask } = setup();
    const kinds = ['anonymous', 'browser', 'declared'] as const;
    let allowed = 0;
    for (let i = 0; i < 30; i++) if ((await ask({ kind: kinds[i % 3]! })).allowed) allowed++;
    expect(allowed).toBe(addressCeiling(small, 'browser')); // 4, not 3 + 4 + 4
  });

  it('budgets each address separately', async () => {
    const { ask } = setup();
    for (let i = 0; i < 4; i++) await ask();
    expect((await ask({ bucket: '2001:db8::/64' })).allowed).toBe(true);
  });

  it('exempt paths report the read budget without spending it, even when it ran out', async () => {
    const { ask } = setup();
    expect((await ask({ pathClass: 'exempt' })).state).toEqual({ limit: 3, remaining: 3, resetSeconds: 60, windowSeconds: 60 });
    for (let i = 0; i < 5; i++) await ask();
    expect(await ask({ pathClass: 'exempt' })).toMatchObject({ allowed: true, state: { remaining: 0 } });
  });

  it('referral lookups spend both budgets and report the one closer to running out', async () => {
    const limits = { ...small, browser: 10, referrals: 3 };
    const { ask } = setup(limits);
    // read: 9 left, referrals: 2 left → the referral budget.
    expect((await ask({ kind: 'browser', pathClass: 'referral' })).state).toEqual({
      limit: 3,
      remaining: 2,
      resetSeconds: 3600,
      windowSeconds: 3600,
    });
    for (let i = 0; i < 6; i++) await ask({ kind: 'browser' });
    // read: 8 spent, 2 left; referrals: 2 spent, 1 left → still the referral budget.
    expect((await ask({ kind: 'browser', pathClass: 'referral' })).state).toMatchObject({ remaining: 1, windowSeconds: 3600 });
    for (let i = 0; i < 1; i++) await ask({ kind: 'browser' });
    // read: 10 spent, 0 left; referrals 3 spent, 0 left: a tie, reported by the later reset.
    expect(await ask({ kind: 'browser', pathClass: 'referral' })).toEqual({
      allowed: true,
      state: { limit: 3, remaining: 0, resetSeconds: 3600, windowSeconds: 3600 },
    });
  });

  it('reports the read budget when it is the closer one', async () => {
    const { ask } = setup({ ...small, browser: 3, referrals: 50 });
    await ask({ kind: 'browser' });
    expect((await ask({ kind: 'browser', pathClass: 'referral' })).state).toEqual({
      limit: 3,
      remaining: 1,
      resetSeconds: 60,
      windowSeconds: 60,
    });
  });

  it('a 429 on a referral lookup reports the budget that ran out', async () => {
    const { ask, clock } = setup({ ...small, declared: 100, referrals: 2 });
    await ask({ kind: 'declared', pathClass: 'referral' });
    await ask({ kind: 'declared', pathClass: 'referral' });
    clock.t += 30_000;
    const refused = await ask({ kind: 'declared', pathClass: 'referral' });
    expect(refused).toEqual({ allowed: false, state: { limit: 2, remaining: 0, resetSeconds: 3570, windowSeconds: 3600 }, spent: 'referral' });
    // Reads are still fine.
    expect((await ask({ kind: 'declared' })).allowed).toBe(true);
  });

  it('when the read budget runs out first, the referral 429 carries the read budget', async () => {
    const { ask } = setup({ ...small, anonymous: 1, referrals: 50 });
    await ask({ pathClass: 'referral' });
    const refused = await ask({ pathClass: 'referral' });
    expect(refused).toMatchObject({ allowed: false, state: { limit: 1, windowSeconds: 60 }, spent: 'read' });
  });

  it('when both run out, the 429 carries the one that resets later', async () => {
    const { ask } = setup({ ...small, anonymous: 1, referrals: 1 });
    await ask({ pathClass: 'referral' });
    const refused = await ask({ pathClass: 'referral' });
    expect(refused).toMatchObject({ allowed: false, state: { limit: 1, windowSeconds: 3600, resetSeconds: 3600 }, spent: 'referral' });
  });

  it('has the contract defaults', () => {
    expect(DEFAULT_LIMITS).toEqual({ verified: 480, declared: 120, browser: 120, anonymous: 30, referrals: 60 });
  });
});
