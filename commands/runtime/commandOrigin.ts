// Who issued a command and why: carried into every appended event's metadata.
import type { EventMetadata } from '../../events/store/port.js'

export type CommandOrigin = {
  organizationId: string
  requestId: string
  /** API key id, agent id, or `cli:<user>` for operator commands. */
  actor: string
  idempotencyKey?: string
  /** The request or event that caused this command. */
  causationId?: string
  correlationId?: string
  onBehalfOf?: string
  /** Deterministic id of a command issued by a workflow or the scheduler: it runs at most once per stream. */
  commandId?: string
}

export function toMetadata(origin: CommandOrigin): EventMetadata {
  return {
    organizationId: origin.organizationId,
    requestId: origin.requestId,
    actor: origin.actor,
    ...(origin.idempotencyKey ? { idempotencyKey: origin.idempotencyKey } : {}),
    causationId: origin.causationId ?? origin.requestId,
    correlationId: origin.correlationId ?? origin.requestId,
    ...(origin.onBehalfOf ? { onBehalfOf: origin.onBehalfOf } : {}),
    ...(origin.commandId ? { commandId: origin.commandId } : {}),
  }
}
