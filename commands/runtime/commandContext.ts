// Who issued a command and why: carried into every appended event's metadata.
import type { EventMetadata } from '../../events/store/port.js'

export type CommandContext = {
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

export function toMetadata(context: CommandContext): EventMetadata {
  return {
    organizationId: context.organizationId,
    requestId: context.requestId,
    actor: context.actor,
    ...(context.idempotencyKey ? { idempotencyKey: context.idempotencyKey } : {}),
    causationId: context.causationId ?? context.requestId,
    correlationId: context.correlationId ?? context.requestId,
    ...(context.onBehalfOf ? { onBehalfOf: context.onBehalfOf } : {}),
    ...(context.commandId ? { commandId: context.commandId } : {}),
  }
}
