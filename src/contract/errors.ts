/**
 * The contract's error bodies other than a 422: `{"detail": "<message>"}`, as the FastAPI service this contract
 * comes from wrote them. Encoded once; the router and the OpenAPI document read the same messages. The body of a
 * 308 answering a renamed id has the same envelope.
 */
import { ROUTES, type AliasKind, type RouteSpec } from './routes.js';

/** `detail` of the errors every route may answer. */
export const DETAIL = {
  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  tooManyRequests: 'Too Many Requests',
  internal: 'Internal Server Error',
} as const;

const encoder = new TextEncoder();
const bodies = new Map<string, Uint8Array>();
for (const detail of [
  ...Object.values(DETAIL),
  ...(ROUTES as readonly RouteSpec[]).flatMap((r) => [r.notFound, r.unavailable].filter((d) => d !== undefined)),
]) {
  bodies.set(detail, encoder.encode(JSON.stringify({ detail })));
}

/**
 * The encoded body `{"detail": …}` of one of the contract's messages ({@link DETAIL}, or a route's `notFound` or
 * `unavailable`).
 * @throws Error for any other message (errors are part of the contract: add it to the table first).
 */
export function detailBody(detail: string): Uint8Array {
  const body = bodies.get(detail);
  if (body === undefined) throw new Error(`not an error message of the contract: ${JSON.stringify(detail)}`);
  return body;
}

/** How the `detail` of a 308 names each kind of renamed id. */
const RENAMED_NOUN: Readonly<Record<AliasKind, string>> = { courses: 'Course', lessons: 'Lesson' };

/** `detail` of the 308 answering an old id: `Lesson "py-strings" is now "py-text"` (ids need no escaping). */
export function movedDetail(kind: AliasKind, old: string, current: string): string {
  return `${RENAMED_NOUN[kind]} "${old}" is now "${current}"`;
}

/** The encoded body `{"detail": …}` of the 308 answering an old id ({@link movedDetail}). */
export function movedBody(kind: AliasKind, old: string, current: string): Uint8Array {
  return encoder.encode(JSON.stringify({ detail: movedDetail(kind, old, current) }));
}
