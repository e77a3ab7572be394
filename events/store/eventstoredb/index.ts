// The EventStoreDB adapter of the event store port, on @eventstore/db-client v6. Everything that
// touches the client lives in this folder, so a move to @kurrent/kurrentdb-client (same gRPC
// protocol, near-identical API) is a local change.
import { BACKWARDS, END, EventStoreDBClient, FORWARDS } from '@eventstore/db-client'
import {
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  START,
  STORE_LIMITS,
  type Subscription,
  WrongExpectedVersionError,
} from '../port.js'
import { comparePositions } from '../positions.js'
import { assertStorableAppend } from '../storableData.js'
import { type ChainTail, chainEvents } from './chainMetadata.js'
import { isStreamNotFound, toPortError } from './errors.js'
import { EVENTSTOREDB_LIMITS } from './limits.js'
import { fromEsdbPosition, toEsdbEvent, toEsdbExpectedRevision, toPortActualRevision, toRecordedEvent } from './mappings.js'
import { readAllMarks, readHead } from './marks.js'
import { readAllPage } from './readAllPage.js'
import { subscribeToAll } from './subscribeToAll.js'

export { isStreamNotFound, toPortError } from './errors.js'
export { EVENTSTOREDB_LIMITS } from './limits.js'
export * from './mappings.js'
export { nextBackoffMs } from './subscribeToAll.js'

export type EventStoreDbEventStoreOptions = {
  /** For example `esdb://localhost:2113?tls=false`. */
  connectionString: string
  /** Errors a subscription recovers from on its own (drops, handler failures), for logging. */
  onError?: (error: unknown) => void
}

function boundedCount(maxCount: number | undefined): number {
  const count = maxCount ?? STORE_LIMITS.defaultReadCount
  if (!Number.isInteger(count) || count < 1 || count > STORE_LIMITS.maxReadCount) {
    throw new RangeError(`maxCount must be 1..${STORE_LIMITS.maxReadCount}`)
  }
  return count
}

/** Whether the caller's expectation holds for the stream's last revision (undefined: no stream). */
function holds(expected: ExpectedRevision, last: bigint | undefined): boolean {
  if (expected === 'any') return true
  if (expected === 'no_stream') return last === undefined
  if (expected === 'stream_exists') return last !== undefined
  return last === expected
}

function assertAppendable(stream: string, events: NewEvent[]): void {
  if (events.length === 0) throw new RangeError('An append needs at least one event')
  if (events.length > STORE_LIMITS.maxEventsPerAppend) throw new RangeError(`At most ${STORE_LIMITS.maxEventsPerAppend} events per append`)
  assertStorableAppend(stream, events)
}

export async function getEventStoreDbEventStore(options: EventStoreDbEventStoreOptions): Promise<EventStore> {
  const onError = options.onError ?? (() => undefined)
  const client = EventStoreDBClient.connectionString(options.connectionString)
  const subscriptions = new Set<Subscription>()

  // Fail at startup, not on the first request, when the server is unreachable or $all unreadable.
  try {
    await client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 }).toArray()
  } catch (error) {
    await client.dispose()
    throw error
  }

  async function lastPositionOf(stream: string): Promise<Position> {
    for await (const resolved of client.readStream(stream, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
      if (resolved.event?.position) return fromEsdbPosition(resolved.event.position)
    }
    throw new Error(`No position for the last event of ${stream}`)
  }

  async function chainTailOf(stream: string): Promise<ChainTail | undefined> {
    try {
      for await (const resolved of client.readStream(stream, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
        if (!resolved.event) continue
        const recorded = toRecordedEvent(resolved)
        return { revision: resolved.event.revision, hash: recorded?.hash ?? null, eventId: resolved.event.id }
      }
    } catch (error) {
      if (isStreamNotFound(error)) return undefined
      throw error
    }
    return undefined
  }

  return {
    kind: 'eventstoredb',
    // EventStoreDB cannot share a transaction with the read models: their projectors run asynchronously.
    supportsInTransaction: false,

    async appendToStream(stream, events, appendOptions) {
      if (appendOptions?.inTransaction) throw new Error('EventStoreDB appends cannot run a step in their transaction')
      assertAppendable(stream, events)
      const expected = appendOptions?.expectedRevision ?? 'any'
      for (let attempt = 1; ; attempt++) {
        // The chain links each event to the stream's last one, so the append expects exactly that revision.
        const tail = await chainTailOf(stream)
        const actual = tail ? tail.revision : ('no_stream' as const)
        // A repeat of an append that went in (its last event is the stream's last): answered, not written twice.
        if (tail && tail.eventId === events[events.length - 1]!.id)
          return { nextExpectedRevision: tail.revision, position: await lastPositionOf(stream) }
        if (!holds(expected, tail?.revision)) throw new WrongExpectedVersionError(stream, expected, actual)
        const chained = chainEvents(stream, events, tail, new Date())
        try {
          const result = await client.appendToStream(stream, chained.map(toEsdbEvent), {
            expectedRevision: toEsdbExpectedRevision(tail ? tail.revision : 'no_stream'),
          })
          // Only when the connection string sets throwOnAppendFailure=false: a conflict as a result.
          if (!result.success) throw new WrongExpectedVersionError(stream, expected, toPortActualRevision(result.nextExpectedRevision))
          const position = result.position ? fromEsdbPosition(result.position) : await lastPositionOf(stream)
          return { nextExpectedRevision: result.nextExpectedRevision, position }
        } catch (error) {
          const conflict = toPortError(error, stream, expected)
          // Another writer came between the read and the append: an expectation that still holds tries again.
          const again = conflict instanceof WrongExpectedVersionError && typeof expected !== 'bigint' && expected !== 'no_stream'
          if (!again || attempt >= EVENTSTOREDB_LIMITS.maxChainedAppendAttempts) throw conflict
        }
      }
    },

    async readStream(stream, readOptions) {
      const read = client.readStream(stream, {
        fromRevision: readOptions?.fromRevision ?? 0n,
        maxCount: boundedCount(readOptions?.maxCount),
        direction: FORWARDS,
        resolveLinkTos: false,
      })
      const events: RecordedEvent[] = []
      try {
        for await (const resolved of read) {
          const recorded = toRecordedEvent(resolved)
          if (recorded) events.push(recorded)
        }
      } catch (error) {
        // A missing stream is not an error from the call but one thrown while iterating.
        if (isStreamNotFound(error)) return []
        throw error
      }
      return events
    },

    async readAll(readOptions) {
      const maxCount = boundedCount(readOptions?.maxCount)
      const events: RecordedEvent[] = []
      let after = readOptions?.from ?? START
      // Several pages only when system events thin a page out.
      while (events.length < maxCount) {
        const page = await readAllPage(client, after, maxCount - events.length)
        events.push(...page.events)
        if (page.atHead || page.last === undefined) break
        after = page.last
      }
      return events
    },

    readAllMarks: async (readOptions) => readAllMarks(client, readOptions?.from ?? START, boundedCount(readOptions?.maxCount)),

    readHead: () => readHead(client),

    subscribeToAll(subscribeOptions, handler) {
      const sub = subscribeToAll(client, subscribeOptions, handler, onError)
      subscriptions.add(sub)
      void sub.done.finally(() => subscriptions.delete(sub))
      return sub
    },

    comparePositions,

    async close() {
      await Promise.all([...subscriptions].map((s) => s.stop()))
      await client.dispose()
    },
  }
}
