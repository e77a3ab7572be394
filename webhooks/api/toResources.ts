// Rows to API resources.
import type { AttemptRow, DeliveryRow, ListedMessage } from '../messages/queries.js'
import type { WebhookAttemptResource, WebhookDeliveryResource, WebhookMessageResource } from './resources.js'
import type { Envelope } from '../envelope.js'

const iso = (d: Date | null) => (d === null ? null : d.toISOString())

export function toMessageResource(row: ListedMessage): WebhookMessageResource {
  const payload = JSON.parse(row.body) as Envelope
  return {
    id: row.id,
    type: row.event_type,
    timestamp: payload.timestamp,
    tags: row.tags,
    payload,
    ...(row.delivery
      ? { status: row.delivery.status, attemptCount: row.delivery.attempt_count, nextAttemptAt: iso(row.delivery.next_attempt_at) }
      : {}),
  }
}

export function toDeliveryResource(row: DeliveryRow): WebhookDeliveryResource {
  return {
    endpointId: row.endpoint_id,
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: iso(row.next_attempt_at),
    lastAttemptAt: iso(row.last_attempt_at),
    lastResponseStatusCode: row.last_response_status,
    lastError: row.last_error,
  }
}

export function toAttemptResource(row: AttemptRow): WebhookAttemptResource {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    url: row.url,
    responseStatusCode: row.response_status,
    responseBody: row.response_body,
    error: row.error,
    durationMs: row.duration_ms,
    trigger: row.trigger,
    timestamp: row.attempted_at.toISOString(),
    nextAttemptAt: iso(row.next_attempt_at),
  }
}
