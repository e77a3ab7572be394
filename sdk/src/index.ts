// The SDK's public surface: the client, its errors, webhook verification, and the generated types.
export { type ListOptions, type PaymentsClient, type PaymentsClientOptions, createPaymentsClient } from './client.js'
export {
  type ErrorBody,
  type ErrorDetail,
  PaymentsApiError,
  PaymentsNetworkError,
  PaymentsPaginationError,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from './errors.js'
export { IDEMPOTENCY_HEADER, newIdempotencyKey } from './idempotency.js'
export { PAGINATION_LIMITS } from './pagination.js'
export type { Answer, HttpMethod, ListItem, ListPage, ListPath, ListQuery, PathsWith, paths } from './paths.js'
export { DEFAULT_RETRY_POLICY, RETRY_LIMITS, type RetryPolicy } from './retryingFetch.js'
export { type VerifyWebhookOptions, WEBHOOK_VERIFY_LIMITS, type WebhookEvent, type WebhookHeaders, verifyWebhook } from './webhooks.js'
export type { components, operations } from './generated/api.js'
