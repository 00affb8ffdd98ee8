/**
 * The refusals relays send when an account is out of quota or balance (issue 39, failover), as
 * their source writes them: a fault `{ relayError: '<shape>' }` answers with that status and body.
 * - new-api (types/error.go, service/billing): 403, `type: "new_api_error"`, `code`
 *   `insufficient_user_quota` (the user's wallet) or `pre_consume_token_quota_failed` (the key's quota);
 * - new-api's key check (middleware/auth.go): 401 with the words `该令牌额度已用尽` and no code;
 * - OpenRouter: 402 Payment Required, a numeric `code`;
 * - OpenAI passed through by a relay: 429 `insufficient_quota`.
 */
import type { Fault } from './faults';

const newApi = (code: string, message: string) => ({ error: { message, type: 'new_api_error', param: '', code } });

export const RELAY_ERRORS = {
  'new-api-user-quota': {
    status: 403,
    body: newApi('insufficient_user_quota', 'insufficient balance, remaining quota: ＄0.000000'),
  },
  'new-api-token-quota': {
    status: 403,
    body: newApi('pre_consume_token_quota_failed', 'token quota is not enough, need quota: ＄0.012000'),
  },
  'new-api-token-exhausted': {
    status: 401,
    body: { error: { message: '该令牌额度已用尽 TokenStatusExhausted[sk-dem***dio]', type: 'new_api_error' } },
  },
  'payment-required': {
    status: 402,
    body: { error: { message: 'Insufficient credits. Add more using https://openrouter.ai/credits', code: 402 } },
  },
  'openai-insufficient-quota': {
    status: 429,
    body: {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    },
  },
} as const;

export type RelayErrorShape = keyof typeof RELAY_ERRORS;

/** The fault with its `relayError` turned into the shape's status and body; throws on an unknown shape. */
export function expandRelayError(f: Fault): Fault {
  if (f.relayError === undefined) return f;
  const { relayError, ...rest } = f;
  if (!Object.hasOwn(RELAY_ERRORS, relayError)) throw new Error(`unknown relayError "${String(relayError)}"`);
  return { ...rest, ...structuredClone(RELAY_ERRORS[relayError]) };
}
