// Loads an aggregate from its stream, asks the pure decider, appends with the expected revision;
// on a concurrent write (another process) it reloads and decides again, a bounded number of times.
// Inside this process, commands on one stream wait for each other (streamQueue.ts).
import { randomUUID } from 'node:crypto'
import type { Decider, DomainEvent } from '../../domain/decider.js'
import { parseEventData } from '../../events/catalog.js'
import { type EventStore, type Position, STORE_LIMITS, WrongExpectedVersionError } from '../../events/store/port.js'
import { type CommandContext, toMetadata } from './commandContext.js'
import { type StreamQueue, createStreamQueue } from './streamQueue.js'

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
  options: { commandId?: string } = {},
): Promise<{ state: State; revision: bigint | undefined; commandSeen: boolean }> {
  let state = decider.initialState()
  let revision: bigint | undefined
  let commandSeen = false
  let from = 0n
  for (;;) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: STORE_LIMITS.maxReadCount })
    for (const recorded of page) {
      state = decider.evolve(state, { type: recorded.type, data: parseEventData(recorded.type, recorded.data) } as Event)
      revision = recorded.revision
      if (options.commandId !== undefined && recorded.metadata.commandId === options.commandId) commandSeen = true
    }
    if (page.length < STORE_LIMITS.maxReadCount) break
    from = revision! + 1n
    if (from > BigInt(COMMAND_LIMITS.maxStreamLength)) throw new Error(`Stream ${stream} is longer than ${COMMAND_LIMITS.maxStreamLength}`)
  }
  return { state, revision, commandSeen }
}

// One queue per event store (each process opens one): no module-level state shared between
// stores, as tests open several.
const queues = new WeakMap<EventStore, StreamQueue>()

function queueOf(store: EventStore): StreamQueue {
  let queue = queues.get(store)
  if (!queue) {
    queue = createStreamQueue()
    queues.set(store, queue)
  }
  return queue
}

/**
 * The state a command left on its stream, kept only while more commands wait on that stream: the
 * next one decides on it instead of reading the whole stream again (a hot stream would otherwise
 * cost a longer read per command). The append's expected revision still proves it current.
 */
type Warm = { decider: unknown; state: unknown; revision: bigint }
const warmStates = new WeakMap<EventStore, Map<string, Warm>>()

function warmOf(store: EventStore): Map<string, Warm> {
  let warm = warmStates.get(store)
  if (!warm) {
    warm = new Map()
    warmStates.set(store, warm)
  }
  return warm
}

export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  stream: string,
  command: Command,
  context: CommandContext,
  options: { newStream?: boolean } = {},
): Promise<CommandResult<State>> {
  if (options.newStream && context.commandId === undefined) {
    // The id was generated for this command, so the stream is almost surely empty and nobody else
    // can be deciding on it: skip the queue and the read, and let the store's no_stream check prove
    // it. On a conflict, take the queued path.
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
  const queue = queueOf(store)
  const warm = warmOf(store)
  return queue.run(stream, async () => {
    try {
      return await decideAndAppend(store, decider, stream, command, context, warm)
    } finally {
      // Nobody behind this command: nothing to keep warm for (memory stays bounded by busy streams).
      if (queue.waiting(stream) <= 1) warm.delete(stream)
    }
  })
}

async function decideAndAppend<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  stream: string,
  command: Command,
  context: CommandContext,
  warm: Map<string, Warm>,
): Promise<CommandResult<State>> {
  const appended = (state: State, events: Event[], result: { nextExpectedRevision: bigint; position: Position }): CommandResult<State> => {
    const next = events.reduce(decider.evolve, state)
    warm.set(stream, { decider, state: next, revision: result.nextExpectedRevision })
    return { state: next, position: result.position, events }
  }
  for (let attempt = 1; ; attempt++) {
    const kept = context.commandId === undefined ? warm.get(stream) : undefined
    // Only the same decider's state; a conflict below drops it, so a retry always reads the stream.
    // A command with an id always reads the stream: it must see whether it already ran.
    const { state, revision, commandSeen } = kept && kept.decider === decider
      ? { state: kept.state as State, revision: kept.revision as bigint | undefined, commandSeen: false }
      : await loadAggregate(store, decider as Decider<State, unknown, Event>, stream, { commandId: context.commandId })
    if (commandSeen) return { state, position: undefined, events: [] }
    const events = decider.decide(command, state)
    if (events.length === 0) return { state, position: undefined, events }
    try {
      return appended(state, events, await store.appendToStream(stream, toNewEvents(events, context), { expectedRevision: revision === undefined ? 'no_stream' : revision }))
    } catch (error) {
      warm.delete(stream)
      if (error instanceof WrongExpectedVersionError && attempt < COMMAND_LIMITS.maxAttempts) continue
      throw error
    }
  }
}
