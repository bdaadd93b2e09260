/** Fair-use rate limiting: budgets per (client address, kind), RateLimit headers, counter stores. */
export * from './budgets.js';
export * from './headers.js';
export * from './memory-store.js';
export * from './step.js';
export type * from './store.js';
