// A stored event as an auditor reads it: where it stands (stream, revision, position, time, its link in
// the hash chain), its data as written (opened by the event codec, never upcast: the shape its
// schemaVersion names) with secrets redacted and sensitive fields masked to their last four
// characters (an erased customer's read [erased]), and who caused it (events/store/port.ts, EventMetadata).
import { ID_PREFIXES } from '../../domain/shared/ids.js'
import { maskSensitive, redactSecrets } from '../protection/redaction.js'
import type { RecordedEvent } from '../store/port.js'

export type AuditEventView = {
  id: string
  stream: string
  type: string
  revision: number
  position: string
  recordedAt: string
  hash: string | null
  schemaVersion: number
  data: Record<string, unknown>
  metadata: {
    actor: string | null
    keyId: string | null
    requestId: string | null
    idempotencyKey: string | null
    causationId: string | null
    correlationId: string | null
    onBehalfOf: string | null
    commandId: string | null
  }
}

const KEY_ID = new RegExp(`^(${ID_PREFIXES.apiKey}|${ID_PREFIXES.agentKey})_`)

/**
 * The key behind an event: a request's events name the key that sent it as their actor (an API key's
 * key_ or an agent key's agk_ id); workflows, timers and operators act as themselves (system:..., cli:...).
 */
export const keyIdOf = (actor: string | undefined): string | null => (actor !== undefined && KEY_ID.test(actor) ? actor : null)

export function auditEventView(event: RecordedEvent): AuditEventView {
  const m = event.metadata
  return {
    id: event.id,
    stream: event.stream,
    type: event.type,
    revision: Number(event.revision),
    position: event.position,
    recordedAt: event.recordedAt.toISOString(),
    hash: event.hash ?? null,
    schemaVersion: m.schemaVersion ?? 1,
    data: redactSecrets(maskSensitive(event.type, event.data)),
    metadata: {
      actor: m.actor ?? null,
      keyId: keyIdOf(m.actor),
      requestId: m.requestId ?? null,
      idempotencyKey: m.idempotencyKey ?? null,
      causationId: m.causationId ?? null,
      correlationId: m.correlationId ?? null,
      onBehalfOf: m.onBehalfOf ?? null,
      commandId: m.commandId ?? null,
    },
  }
}
