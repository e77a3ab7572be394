// The EventStoreDB adapter of the event store port, on @eventstore/db-client v6. Everything that
// touches the client lives in this folder, so a move to @kurrent/kurrentdb-client (same gRPC
// protocol, near-identical API) is a local change.
import { BACKWARDS, END, EventStoreDBClient, FORWARDS } from '@eventstore/db-client'
import {
  type EventStore,
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
import { isStreamNotFound, toPortError } from './errors.js'
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

  return {
    kind: 'eventstoredb',
    // EventStoreDB cannot share a transaction with the read models: their projectors run asynchronously.
    supportsInTransaction: false,

    async appendToStream(stream, events, appendOptions) {
      if (appendOptions?.inTransaction) throw new Error('EventStoreDB appends cannot run a step in their transaction')
      assertAppendable(stream, events)
      const expected = appendOptions?.expectedRevision ?? 'any'
      const result = await client
        .appendToStream(stream, events.map(toEsdbEvent), { expectedRevision: toEsdbExpectedRevision(expected) })
        .catch((error: unknown) => {
          throw toPortError(error, stream, expected)
        })
      // Only when the connection string sets throwOnAppendFailure=false: a conflict as a result.
      if (!result.success) throw new WrongExpectedVersionError(stream, expected, toPortActualRevision(result.nextExpectedRevision))
      // The server omits the position when the append was an idempotent repeat; read it instead.
      const position = result.position ? fromEsdbPosition(result.position) : await lastPositionOf(stream)
      return { nextExpectedRevision: result.nextExpectedRevision, position }
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
