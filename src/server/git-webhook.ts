/**
 * `POST /hooks/git` on the admin listener: a push webhook from GitHub or GitLab that nudges the Git content
 * source to fetch now instead of at its next poll. The delivery is only a nudge: its body is authenticated and
 * then dropped, never parsed, so nothing in it (a commit id, a branch) is trusted; the source fetches the
 * branch itself.
 *
 * Authentication, compared in constant time:
 * - GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body, keyed with the secret>`
 *   (https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries);
 * - GitLab: `X-Gitlab-Token: <secret>` (https://docs.gitlab.com/user/project/integrations/webhooks/).
 *
 * Bodies are limited to {@link WEBHOOK_MAX_BODY_BYTES}; the HMAC is fed chunk by chunk, so no body is held in
 * memory. Every delivery is counted by its result ({@link WebhookResult}) and logged with its provider, event,
 * delivery id, status and peer address, never the secret, a token or a signature: an accepted one at `info`, a
 * rejected one at `warn`, at most one line a minute ({@link ThrottledWarning}), since anyone who reaches the port
 * can send as many as they like.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppLogger } from '../http/access-log.js';
import { adminDetail, adminNotFound, type AdminRequestInfo, type AdminRoute } from './admin.js';
import { ThrottledWarning } from './throttled-warning.js';

/** The path of the webhook on the admin listener. */
export const WEBHOOK_PATH = '/hooks/git';

/** Largest body accepted, in bytes (1 MiB); a larger one is answered `413`. */
export const WEBHOOK_MAX_BODY_BYTES = 1_048_576;

/** Event names and delivery ids longer than this (characters) are dropped, not truncated. */
const MAX_FIELD_LENGTH = 128;

/**
 * How a delivery ended: `accepted` (202, then `onDelivery`), `unauthorized` (401: no, a malformed or a wrong signature
 * or token), `too_large` (413), `unreadable` (400: the body could not be read), `failed` (500: `onDelivery` threw).
 */
export const WEBHOOK_RESULTS = ['accepted', 'unauthorized', 'too_large', 'unreadable', 'failed'] as const;
/** One of {@link WEBHOOK_RESULTS}. */
export type WebhookResult = (typeof WEBHOOK_RESULTS)[number];

/** The answer to each kind of rejected delivery. */
const REJECTIONS = {
  unauthorized: { status: 401, detail: 'Unauthorized' },
  too_large: { status: 413, detail: 'Payload Too Large' },
  unreadable: { status: 400, detail: 'Bad Request' },
} as const;

/** Where a delivery comes from. */
export type GitProvider = 'github' | 'gitlab';

/** An authenticated delivery: a nudge to fetch, nothing more. */
export interface GitDelivery {
  provider: GitProvider;
  /**
   * `X-GitHub-Event` (`push`, `ping`, …) or `X-Gitlab-Event` (`Push Hook`, …); absent when missing, longer than
   * 128 characters or not printable ASCII.
   */
  event?: string;
  /** `X-GitHub-Delivery` or `X-Gitlab-Event-UUID`, under the same rules as `event`. */
  deliveryId?: string;
}

/** Options of {@link gitWebhookRoute}. */
export interface GitWebhookOptions {
  /**
   * The shared secret (`CONTENT_GIT_WEBHOOK_SECRET`); `undefined` disables the route: it answers `404` as an
   * unknown path does.
   */
  secret: string | undefined;
  /**
   * Called once per authenticated delivery, `ping` included, after the `202` is decided. Senders retry and
   * pushes come in bursts, so expect many calls close together: folding them into one fetch is the caller's job
   * (the Git source's `refresh()` does). A throw is answered `500`.
   */
  onDelivery: (delivery: GitDelivery) => void;
  /** Called once per delivery the route answers, with how it ended (the metrics count them). */
  onResult: (result: WebhookResult) => void;
  logger: AppLogger;
  /** The clock of the rejections' log rate, in milliseconds (default `Date.now`; tests move their own). */
  now?: () => number;
}

/** A header value fit for logs: 1 to 128 printable ASCII characters (space included), else undefined. */
function printableField(value: string | null): string | undefined {
  if (value === null || value.length === 0 || value.length > MAX_FIELD_LENGTH) return undefined;
  return /^[\x20-\x7e]+$/.test(value) ? value : undefined;
}

/** The provider a request claims to come from: its authentication header first, then its event header. */
function claimedProvider(headers: Headers): GitProvider | undefined {
  if (headers.has('x-hub-signature-256')) return 'github';
  if (headers.has('x-gitlab-token')) return 'gitlab';
  if (headers.has('x-github-event')) return 'github';
  if (headers.has('x-gitlab-event')) return 'gitlab';
  return undefined;
}

/** The delivery a request describes (before it is authenticated). */
function describe(headers: Headers, provider: GitProvider): GitDelivery {
  const event = printableField(headers.get(provider === 'github' ? 'x-github-event' : 'x-gitlab-event'));
  const deliveryId = printableField(headers.get(provider === 'github' ? 'x-github-delivery' : 'x-gitlab-event-uuid'));
  return { provider, ...(event !== undefined && { event }), ...(deliveryId !== undefined && { deliveryId }) };
}

/** The 32 digest bytes of an `X-Hub-Signature-256` value, or undefined when it is not `sha256=` + 64 hex digits. */
function parseGithubSignature(value: string): Buffer | undefined {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(value);
  return match === null ? undefined : Buffer.from(match[1]!, 'hex');
}

/** The `Content-Length` a request declares, or undefined when absent or not a plain number (Node checked it). */
function declaredLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * Reads a request body chunk by chunk, giving each chunk to `onChunk`, and stops (cancelling the reader, so the
 * rest is never read here) as soon as more than `limitBytes` arrived.
 * @returns `ok`, `too-large`, or `unreadable` when the stream failed (the client went away mid-body).
 */
async function consumeBody(request: Request, limitBytes: number, onChunk: (chunk: Uint8Array) => void): Promise<'ok' | 'too-large' | 'unreadable'> {
  if (request.body === null) return 'ok';
  const reader = request.body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 'ok';
      total += value.byteLength;
      if (total > limitBytes) {
        // The host drains (or drops) whatever the client still sends once the answer is out.
        await reader.cancel().catch(() => {});
        return 'too-large';
      }
      onChunk(value);
    }
  } catch {
    return 'unreadable';
  }
}

/**
 * The `POST /hooks/git` route of the admin listener (see the module comment).
 *
 * Answers: `202 {"detail":"Accepted"}` for an authenticated delivery (then `onDelivery`); `401
 * {"detail":"Unauthorized"}` for a missing, malformed or wrong signature or token; `413 {"detail":"Payload Too
 * Large"}` for a body over 1 MiB (a larger `Content-Length` is refused unread); `400 {"detail":"Bad Request"}`
 * when the body cannot be read; `404 {"detail":"Not Found"}` for every request while `secret` is undefined (not
 * counted: the route is off). Each answer but the 404 is reported to `onResult`.
 * @throws RangeError when `secret` is the empty string (it would authenticate anyone sending an empty token).
 */
export function gitWebhookRoute(opts: GitWebhookOptions): AdminRoute {
  const { secret, onDelivery, onResult, logger } = opts;
  if (secret === undefined) {
    return { path: WEBHOOK_PATH, methods: ['POST'], enabled: false, handle: adminNotFound };
  }
  if (secret.length === 0) throw new RangeError('the Git webhook secret must not be empty');

  // GitLab sends the secret itself: both sides are reduced to HMACs under a key of this process, so the
  // comparison is constant time on equal-length buffers and a token's length never shows in the timing.
  const tokenKey = randomBytes(32);
  const tokenDigest = (bytes: Buffer): Buffer => createHmac('sha256', tokenKey).update(bytes).digest();
  const secretDigest = tokenDigest(Buffer.from(secret, 'utf8'));
  const rejections = new ThrottledWarning(logger, 'git webhook delivery rejected', opts.now);

  const handle = async (request: Request, info: AdminRequestInfo): Promise<Response> => {
    const { headers } = request;
    const provider = claimedProvider(headers);
    const delivery: GitDelivery | undefined = provider === undefined ? undefined : describe(headers, provider);
    const logFields = (status: number) => ({
      provider: provider ?? 'unknown',
      event: delivery?.event,
      delivery_id: delivery?.deliveryId,
      status,
      peer: info.peer,
    });
    const reject = (result: keyof typeof REJECTIONS, reason: string): Response => {
      const { status, detail } = REJECTIONS[result];
      onResult(result);
      rejections.warn({ ...logFields(status), result, reason });
      return adminDetail(status, detail);
    };

    // Authentication that does not need the body comes first, so an unauthenticated client is refused unread.
    const signatureField = headers.get('x-hub-signature-256');
    const tokenField = signatureField === null ? headers.get('x-gitlab-token') : null;
    let signature: Buffer | undefined;
    if (signatureField !== null) {
      signature = parseGithubSignature(signatureField);
      if (signature === undefined) return reject('unauthorized', 'malformed signature');
    } else if (tokenField !== null) {
      // Node hands header values over as latin1: this recovers the bytes the sender wrote.
      if (!timingSafeEqual(tokenDigest(Buffer.from(tokenField, 'latin1')), secretDigest)) return reject('unauthorized', 'wrong token');
    } else {
      return reject('unauthorized', 'no signature or token');
    }

    const declared = declaredLength(headers);
    if (declared !== undefined && declared > WEBHOOK_MAX_BODY_BYTES) return reject('too_large', 'declared body too large');
    // The HMAC runs over the raw bytes as they arrive (never a decoded string); a GitLab body is read and dropped.
    const hmac = signature === undefined ? undefined : createHmac('sha256', secret);
    const read = await consumeBody(request, WEBHOOK_MAX_BODY_BYTES, (chunk) => hmac?.update(chunk));
    if (read === 'too-large') return reject('too_large', 'body too large');
    if (read === 'unreadable') return reject('unreadable', 'body unreadable');
    if (hmac !== undefined && signature !== undefined && !timingSafeEqual(hmac.digest(), signature)) {
      return reject('unauthorized', 'wrong signature');
    }

    logger.info(logFields(202), 'git webhook delivery accepted');
    try {
      // A signature or a token was present, so the provider (and with it the delivery) is known.
      onDelivery(delivery ?? { provider: signature === undefined ? 'gitlab' : 'github' });
    } catch (error) {
      onResult('failed');
      throw error; // the admin table logs it and answers 500
    }
    onResult('accepted');
    return adminDetail(202, 'Accepted');
  };
  return { path: WEBHOOK_PATH, methods: ['POST'], handle };
}
