/**
 * What a client is told about the fair-use budgets: the client kinds, the `RateLimit-Policy` format, when to retry,
 * and the body of a `429` that explains itself (which budget ran out, how to get a larger one, when to retry, where
 * the limits are documented). The budgets themselves are configuration (`RATE_LIMIT_*`): nothing here states one.
 */
import type { JsonSchemaObject } from './components.js';

/** The kinds of client the fair-use budgets distinguish, largest budget first by default. */
export const CLIENT_KINDS = ['verified', 'declared', 'browser', 'anonymous'] as const;

/** One of {@link CLIENT_KINDS}. */
export type ClientKind = (typeof CLIENT_KINDS)[number];

/**
 * The budgets a request may run out of: `read`, its client kind's at its address; `address`, its address's ceiling
 * across kinds (so that switching `User-Agent` does not add the kinds' budgets up); `referral`, its address's
 * hourly referral checks.
 */
export const BUDGET_NAMES = ['read', 'address', 'referral'] as const;

/** One of {@link BUDGET_NAMES}. */
export type BudgetName = (typeof BUDGET_NAMES)[number];

/** The kinds a client can choose to be for a larger budget, and how (browsers are people, not a choice). */
const UPGRADES = {
  declared: 'Name your client in User-Agent with a product token of its own, e.g. "my-tool/1.0 (+https://example.org)".',
  verified: 'Sign your requests as a verified agent (RFC 9421 HTTP Message Signatures, Web Bot Auth).',
} as const;

/** A kind a client can choose to be for a larger budget. */
export type UpgradeKind = keyof typeof UPGRADES;

/** The kinds of {@link UPGRADES}, in the order a client would try them. */
export const UPGRADE_KINDS: readonly UpgradeKind[] = ['declared', 'verified'];

/** Where the project's documentation is published. The one place every link to it derives from. */
const DOCS_URL = 'https://github.com/syllabus/syllabus-catalog/blob/main/docs/';

/** The documentation of each kind a client can choose to be. */
const UPGRADE_DOCS: Readonly<Record<UpgradeKind, string>> = {
  declared: `${DOCS_URL}api.md#rate-limits-fair-use`,
  verified: `${DOCS_URL}verified-agents.md`,
};

/** The documentation of the budgets: `docs/api.md`, section *Rate limits (fair use)*. */
export const RATE_LIMITS_DOC_URL = UPGRADE_DOCS.declared;

/** `RateLimit-Policy` of a budget (draft-ietf-httpapi-ratelimit-headers-06): `<limit>;w=<window seconds>`. */
export function rateLimitPolicy(limit: number, windowSeconds: number): string {
  return `${limit};w=${windowSeconds}`;
}

/**
 * `Retry-After` of a 429 (RFC 9110 §10.2.3): the whole seconds until the budget's window resets, at least 1.
 * @param resetSeconds whole seconds until the window resets (`RateLimit-Reset`).
 */
export function retryAfterSeconds(resetSeconds: number): number {
  return Math.max(1, resetSeconds);
}

/** A budget as a 429 names it. */
export interface BudgetDescription {
  readonly client_kind: ClientKind;
  /** As `RateLimit-Policy`: `<limit>;w=<window seconds>`. */
  readonly policy: string;
  readonly limit: number;
  readonly window_seconds: number;
}

/** A larger budget and how to reach it. */
export interface LargerBudget extends BudgetDescription {
  readonly client_kind: UpgradeKind;
  readonly how: string;
  readonly documentation_url: string;
}

/** The JSON body of a 429: `detail` as every error, and why. */
export interface TooManyRequestsBody {
  readonly detail: string;
  /** The whole explanation in English, for a person reading the body. */
  readonly message: string;
  /** The budget that ran out (the one `RateLimit-Policy` reports). */
  readonly budget: BudgetDescription & { readonly name: BudgetName };
  /** As `Retry-After`. */
  readonly retry_after_seconds: number;
  /** The budgets of the same name a client could reach, larger than the one that ran out (none may be). */
  readonly larger_budgets: readonly LargerBudget[];
  readonly documentation_url: string;
}

/** What a refusal is explained from. */
export interface Refusal {
  /** The message of every 429 (`DETAIL.tooManyRequests`). */
  readonly detail: string;
  readonly kind: ClientKind;
  readonly budget: BudgetName;
  readonly limit: number;
  readonly windowSeconds: number;
  /** Whole seconds until the budget's window resets. */
  readonly resetSeconds: number;
  /** The limit of the same budget for each kind a client can choose to be (from the configuration). */
  readonly limitOf: (kind: UpgradeKind) => number;
}

const PER_BUDGET: Readonly<Record<BudgetName, string>> = {
  read: 'the read budget of your client kind at your address',
  address: 'the read budget of your address, across client kinds',
  referral: 'the referral checks of your address',
};

const KIND_NAMES: Readonly<Record<ClientKind, string>> = {
  verified: 'a verified agent',
  declared: 'a declared agent',
  browser: 'a browser',
  anonymous: 'an anonymous client',
};

/** `30 requests per 60 seconds`. */
const perWindow = (limit: number, seconds: number) => `${limit} ${limit === 1 ? 'request' : 'requests'} per ${seconds} seconds`;

/**
 * The body of a 429: the budget that ran out, the larger budgets of the same name a client could reach (a referral
 * budget is the same for every kind: none), when to retry, and the documentation.
 */
export function tooManyRequestsBody(refusal: Refusal): TooManyRequestsBody {
  const { kind, budget, limit, windowSeconds } = refusal;
  const retry = retryAfterSeconds(refusal.resetSeconds);
  const larger: LargerBudget[] =
    budget === 'referral'
      ? []
      : UPGRADE_KINDS.filter((k) => k !== kind && refusal.limitOf(k) > limit).map((k) => {
          const upgraded = refusal.limitOf(k);
          return {
            client_kind: k,
            policy: rateLimitPolicy(upgraded, windowSeconds),
            limit: upgraded,
            window_seconds: windowSeconds,
            how: UPGRADES[k],
            documentation_url: UPGRADE_DOCS[k],
          };
        });
  const how =
    larger.length === 0
      ? 'No client kind has a larger budget.'
      : `A larger budget: ${larger.map((b) => `${perWindow(b.limit, b.window_seconds)} if you ${b.how.charAt(0).toLowerCase()}${b.how.slice(1, -1)}`).join('; or ')}.`;
  return {
    detail: refusal.detail,
    message: `You are ${KIND_NAMES[kind]}, and ${PER_BUDGET[budget]} (${perWindow(limit, windowSeconds)}) has run out. Retry in ${retry} ${retry === 1 ? 'second' : 'seconds'}. ${how} See ${RATE_LIMITS_DOC_URL}`,
    budget: { name: budget, client_kind: kind, policy: rateLimitPolicy(limit, windowSeconds), limit, window_seconds: windowSeconds },
    retry_after_seconds: retry,
    larger_budgets: larger,
    documentation_url: RATE_LIMITS_DOC_URL,
  };
}

const POLICY_SCHEMA = { type: 'string', pattern: '^[0-9]+;w=[0-9]+$', description: 'As `RateLimit-Policy`: `<limit>;w=<window seconds>`.' };
const BUDGET_PROPERTIES = {
  policy: POLICY_SCHEMA,
  limit: { type: 'integer', minimum: 0, description: 'Requests allowed per window.' },
  window_seconds: { type: 'integer', minimum: 1, description: 'Length of the window, in seconds.' },
};

/** The JSON Schema of {@link TooManyRequestsBody}, for `/openapi.json`. */
export const TOO_MANY_REQUESTS_SCHEMA: JsonSchemaObject = {
  type: 'object',
  description:
    'The request was refused by a rate limit: which budget ran out, the larger budgets a client could reach and how, when to retry, and where the limits are documented.',
  required: ['detail', 'message', 'budget', 'retry_after_seconds', 'larger_budgets', 'documentation_url'],
  properties: {
    detail: { type: 'string', description: 'What went wrong, in English: `Too Many Requests`.' },
    message: { type: 'string', description: 'The whole explanation in English, for a person reading the body.' },
    budget: {
      type: 'object',
      description: 'The budget that ran out: the one the `RateLimit-*` headers report.',
      required: ['name', 'client_kind', 'policy', 'limit', 'window_seconds'],
      properties: {
        name: {
          type: 'string',
          enum: [...BUDGET_NAMES],
          description:
            "`read`: your client kind's budget at your address; `address`: your address's ceiling across client kinds; `referral`: your address's hourly referral checks.",
        },
        client_kind: { type: 'string', enum: [...CLIENT_KINDS], description: 'How the service classified the request.' },
        ...BUDGET_PROPERTIES,
      },
    },
    retry_after_seconds: { type: 'integer', minimum: 1, description: 'As `Retry-After`: whole seconds to wait before retrying.' },
    larger_budgets: {
      type: 'array',
      description: 'The budgets a client could reach instead, larger than the one that ran out, and how. Empty when none is.',
      items: {
        type: 'object',
        required: ['client_kind', 'policy', 'limit', 'window_seconds', 'how', 'documentation_url'],
        properties: {
          client_kind: { type: 'string', enum: [...UPGRADE_KINDS] },
          ...BUDGET_PROPERTIES,
          how: { type: 'string', description: 'How to be that kind of client.' },
          documentation_url: { type: 'string', format: 'uri' },
        },
      },
    },
    documentation_url: { type: 'string', format: 'uri', description: 'The documentation of the rate limits.' },
  },
};
