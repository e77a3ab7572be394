// What a command's caller gets back from the command runtime.
import type { DomainEvent } from '../../domain/decider.js'
import type { Position } from '../../events/store/port.js'

export type CommandResult<State> = {
  state: State
  /** Position of the last appended event; undefined when the command produced no events. */
  position: Position | undefined
  events: DomainEvent[]
  /** The stored ids of `events`, in order (a webhook message id is made from its event's id). */
  eventIds: string[]
  /** A command with an id that had run already: where its event is (a repeat's read-your-writes position). */
  repeatedAt?: Position
}
