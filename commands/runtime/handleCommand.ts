// Loads an aggregate from its stream, asks the pure decider, appends with the expected revision;
// on a concurrent write it reloads and decides again, a bounded number of times.
import { randomUUID } from 'node:crypto'
import type { Decider, DomainEvent } from '../../domain/decider.js'
import { parseEventData } from '../../events/catalog.js'
import { type EventStore, type Position, STORE_LIMITS, WrongExpectedVersionError } from '../../events/store/port.js'
import { type CommandContext, toMetadata } from './commandContext.js'

export const COMMAND_LIMITS = {
  maxAttempts: 5,
  /** Longest stream an aggregate may have; past it, snapshotting is due. */
  maxStreamLength: 100_000,
} as const

export type CommandResult<State> = {
  state: State
  /** Position of the last appended event; undefined when the command produced no events. */
  position: Position | undefined
  events: DomainEvent[]
}

function toNewEvents(events: DomainEvent[], context: CommandContext) {
  const metadata = toMetadata(context)
  return events.map((e) => ({ id: randomUUID(), type: e.type, data: parseEventData(e.type, e.data), metadata }))
}

export async function loadAggregate<State, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, unknown, Event>,
  stream: string,
): Promise<{ state: State; revision: bigint | undefined }> {
  let state = decider.initialState()
  let revision: bigint | undefined
  let from = 0n
  for (;;) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: STORE_LIMITS.maxReadCount })
    for (const recorded of page) {
      state = decider.evolve(state, { type: recorded.type, data: parseEventData(recorded.type, recorded.data) } as Event)
      revision = recorded.revision
    }
    if (page.length < STORE_LIMITS.maxReadCount) break
    from = revision! + 1n
    if (from > BigInt(COMMAND_LIMITS.maxStreamLength)) throw new Error(`Stream ${stream} is longer than ${COMMAND_LIMITS.maxStreamLength}`)
  }
  return { state, revision }
}

export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  stream: string,
  command: Command,
  context: CommandContext,
  options: { newStream?: boolean } = {},
): Promise<CommandResult<State>> {
  if (options.newStream) {
    // The id was generated for this command, so the stream is almost surely empty: skip the read
    // and let the store's no_stream check prove it. On a conflict, take the normal path.
    const state = decider.initialState()
    const events = decider.decide(command, state)
    if (events.length === 0) return { state, position: undefined, events }
    try {
      const result = await store.appendToStream(stream, toNewEvents(events, context), { expectedRevision: 'no_stream' })
      return { state: events.reduce(decider.evolve, state), position: result.position, events }
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error
    }
  }
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadAggregate(store, decider as Decider<State, unknown, Event>, stream)
    const events = decider.decide(command, state)
    if (events.length === 0) return { state, position: undefined, events }
    try {
      const result = await store.appendToStream(stream, toNewEvents(events, context), { expectedRevision: revision === undefined ? 'no_stream' : revision })
      return { state: events.reduce(decider.evolve, state), position: result.position, events }
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && attempt < COMMAND_LIMITS.maxAttempts) continue
      throw error
    }
  }
}
