// The spec's webhook envelope, built once per message. The body string is stored and every
// attempt sends exactly these bytes ("replays redeliver the original event unchanged").
import type { PublicEvent } from '../domain/publicEvents.js'
import { WEBHOOK_LIMITS } from './limits.js'

export const API_VERSION = '1.0'
const MESSAGE_ID_PREFIX = 'evt_'

export type Envelope = {
  id: string
  timestamp: string
  apiVersion: string
  organizationId: string
  type: string
  data: Record<string, unknown>
}

/** The message id: `evt_` + the stored event's id, so a replay never mints a new one. */
export const messageIdOf = (storedEventId: string): string => `${MESSAGE_ID_PREFIX}${storedEventId}`

export function buildEnvelope(input: { storedEventId: string; recordedAt: Date; organizationId: string; event: PublicEvent }): {
  envelope: Envelope
  body: string
} {
  const envelope: Envelope = {
    id: messageIdOf(input.storedEventId),
    timestamp: input.recordedAt.toISOString(),
    apiVersion: API_VERSION,
    organizationId: input.organizationId,
    type: input.event.type,
    data: input.event.data,
  }
  const body = JSON.stringify(envelope)
  if (Buffer.byteLength(body) > WEBHOOK_LIMITS.maxMessageBytes) {
    throw new Error(`Webhook message ${envelope.id} is larger than ${WEBHOOK_LIMITS.maxMessageBytes} bytes`)
  }
  return { envelope, body }
}

/**
 * Tags as stored: unique, non-empty strings of at most tagMaxLength, the first maxTagsPerMessage in
 * the mapper's order (each mapper lists its resource's own id first, then the ids it names in a
 * stated order). Never a throw: a repayment of 1 000 draws is data the domain accepted, and one
 * message refused here would stop every organization's webhooks (issue 24, D2).
 */
export function boundedTags(tags: readonly string[]): string[] {
  const unique = [...new Set(tags.filter((t) => t.length > 0 && t.length <= WEBHOOK_LIMITS.tagMaxLength))]
  return unique.slice(0, WEBHOOK_LIMITS.maxTagsPerMessage)
}
