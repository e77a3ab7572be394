// What a workflow (process manager) is: the event types it reacts to and, for each such event, the
// commands it issues. Every command carries an id derived from the causing event and the step, so
// the command runtime appends it at most once per stream, whatever replays or crashes happen around it.
// A step may instead cause an effect outside the log through `services` (shredding a data key):
// such an effect must be idempotent, as a step runs again after a crash or a replay.
import type { Environment } from '../../domain/shared/environment.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import type { Position, RecordedEvent } from '../../events/store/port.js'
import type { Commands } from '../runtime/commandRuntime.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'

/** What a step may use besides the event store: the runtime's data keys, and the environment it runs in. */
export type WorkflowServices = { protection: DataProtection; environment: Environment }

/** One command an event causes: `step` tells apart several commands of one event. */
export type WorkflowCommand = {
  step: string
  organizationId: string
  /** Runs the command with the given context (its commandId set); the position of what it appended (none for an effect). */
  run(commands: Commands, context: CommandOrigin, services: WorkflowServices): Promise<{ position: Position | undefined }>
}

export type Workflow = {
  /** Its checkpoint's name, and part of every command id it issues: never rename one that ran. */
  name: string
  handles: ReadonlySet<string>
  /** Pure: the commands `event` causes (parsed data), in the order they must run. */
  commandsFor(event: RecordedEvent): WorkflowCommand[]
}

/** The deterministic command id: the same event and step always give the same id. */
export const workflowCommandId = (workflow: Workflow, event: RecordedEvent, step: string): string => `${workflow.name}:${event.id}:${step}`

/** Who the appended events name as their actor. */
export const workflowActor = (workflow: Workflow): string => `system:workflow:${workflow.name}`

/** The context of a command a workflow issues: caused by the event, in its request's correlation. */
export function workflowContext(workflow: Workflow, event: RecordedEvent, command: WorkflowCommand): CommandOrigin {
  return {
    organizationId: command.organizationId,
    requestId: event.metadata.requestId ?? event.id,
    actor: workflowActor(workflow),
    causationId: event.id,
    correlationId: event.metadata.correlationId ?? event.metadata.requestId ?? event.id,
    ...(event.metadata.onBehalfOf ? { onBehalfOf: event.metadata.onBehalfOf } : {}),
    commandId: workflowCommandId(workflow, event, command.step),
  }
}
