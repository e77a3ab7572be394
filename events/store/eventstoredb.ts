// The EventStoreDB adapter of the event store port, on @eventstore/db-client v6. Everything that
// touches the client lives in this one file, so a move to @kurrent/kurrentdb-client (same gRPC
// protocol, near-identical API) is a local change.
import type { Readable } from 'node:stream'
import {
  ANY,
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START as ESDB_START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type CurrentRevision,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client'
import {
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  START,
  STORE_LIMITS,
  type Subscription,
  type SubscriptionHandler,
  WrongExpectedVersionError,
} from './port.js'
import { comparePositions, decodePosition, encodePosition } from './positions.js'
import { assertStorableAppend } from './storableData.js'

export type EventStoreDbEventStoreOptions = {
  /** For example `esdb://localhost:2113?tls=false`. */
  connectionString: string
  /** Errors a subscription recovers from on its own (drops, handler failures), for logging. */
  onError?: (error: unknown) => void
}

export const EVENTSTOREDB_LIMITS = {
  defaultBatchSize: 500,
  maxBatchSize: 1_000,
  minResubscribeMs: 100,
  maxResubscribeMs: 5_000,
} as const

// ---- Pure mappings between the port and the client (exported for unit tests) ----

/** The port's expected revision as the client's. The client's constants, never -1n and friends. */
export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY
    case 'no_stream':
      return NO_STREAM
    case 'stream_exists':
      return STREAM_EXISTS
    default:
      // The wire protocol gives negative revisions special meanings; the port has names for those.
      if (expected < 0n) throw new RangeError(`expectedRevision must be >= 0n, got ${expected}`)
      return expected
  }
}

export function fromEsdbPosition(position: { commit: bigint; prepare: bigint }): Position {
  return encodePosition(position.commit, position.prepare)
}

export function toEsdbReadPosition(position: Position | undefined): ReadPosition {
  if (!position) return ESDB_START
  const { major, minor } = decodePosition(position)
  return { commit: major, prepare: minor }
}

/** The stream's current revision as the port reports it in a conflict. */
export function toPortActualRevision(current: CurrentRevision | undefined): bigint | 'no_stream' {
  // Errors built from gRPC metadata can carry -1 for a missing stream instead of 'no_stream'.
  return typeof current === 'bigint' && current >= 0n ? current : 'no_stream'
}

function isEsdbError(error: unknown, type: ErrorType): error is Error & { type: ErrorType } {
  // By the `type` tag as well as by class: a second copy of the client would fail `instanceof`.
  return error instanceof Error && 'type' in error && error.type === type
}

function isWrongExpectedVersion(error: unknown): error is EsdbWrongExpectedVersionError {
  return error instanceof EsdbWrongExpectedVersionError || isEsdbError(error, ErrorType.WRONG_EXPECTED_VERSION)
}

export function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError || isEsdbError(error, ErrorType.STREAM_NOT_FOUND)
}

/** The client's conflict error as the port's typed one; anything else unchanged. */
export function toPortError(error: unknown, stream: string, expected: ExpectedRevision): unknown {
  if (!isWrongExpectedVersion(error)) return error
  // The caller's own `expected` rather than the client's copy, which is lossy ('any' as fallback).
  return new WrongExpectedVersionError(stream, expected, toPortActualRevision(error.actualVersion))
}

/** Server-internal events ($metadata, $>, $statsCollected, ...): never port events. */
export function isSystemEventType(type: string): boolean {
  return type.startsWith('$')
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value)
}

/**
 * A resolved event as a port event, or undefined when it is not one: system events, and events
 * other writers stored as binary or as non-object JSON (this port only ever writes JSON objects).
 */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event
  if (!event || isSystemEventType(event.type) || !event.isJson || !isJsonObject(event.data)) return undefined
  if (!event.position) throw new Error(`EventStoreDB sent ${event.streamId}@${event.revision} without a position (server 22.6 or later needed)`)
  return {
    id: event.id,
    stream: event.streamId,
    revision: event.revision,
    position: fromEsdbPosition(event.position),
    type: event.type,
    data: event.data,
    metadata: isJsonObject(event.metadata) ? (event.metadata as EventMetadata) : {},
    recordedAt: event.created,
  }
}

export function toEsdbEvent(event: NewEvent) {
  return jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: event.metadata })
}

export function nextBackoffMs(currentMs: number): number {
  return Math.min(currentMs * 2, EVENTSTOREDB_LIMITS.maxResubscribeMs)
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

// ---- Reads ----

type Interrupts = Set<() => void>

type Page = {
  events: RecordedEvent[]
  /** Position of the last event examined, system events included: where the next page starts. */
  last: Position | undefined
  /** The read came back short: nothing after `last` was committed when it ran. */
  atHead: boolean
}

/** Up to `count` port events of $all strictly after `after`. */
async function readAllPage(client: EventStoreDBClient, after: Position, count: number, interrupts?: Interrupts): Promise<Page> {
  // A read from a position includes the event at it (subscriptions do not): ask one more, skip it.
  const request = after === START ? count : count + 1
  const read = client.readAll({ fromPosition: toEsdbReadPosition(after), maxCount: request, direction: FORWARDS, resolveLinkTos: false })
  // Deadlines on reads are infinite; let a stop end a read stuck on a dead connection.
  const interrupt = () => {
    void read.cancel().catch(() => undefined)
    read.destroy()
  }
  interrupts?.add(interrupt)
  const events: RecordedEvent[] = []
  let last: Position | undefined
  let seen = 0
  let full = false
  try {
    // Read the page to its end rather than break: breaking leaves the gRPC call half-read.
    for await (const resolved of read) {
      seen++
      if (full || !resolved.event) continue
      const position = fromEsdbPosition(resolved.event.position)
      if (after !== START && comparePositions(position, after) <= 0) continue
      const recorded = toRecordedEvent(resolved)
      if (recorded) {
        if (events.length === count) {
          full = true
          continue
        }
        events.push(recorded)
      }
      last = position
    }
  } finally {
    interrupts?.delete(interrupt)
  }
  return { events, last, atHead: !full && seen < request }
}

// ---- Subscription ----

/**
 * Pulls a readable in batches: whatever is buffered, up to `max`, waiting for at least one item.
 * Listeners stay attached for the stream's life, so a late 'error' is recorded, never unhandled.
 */
function batchReader<T>(stream: Readable) {
  let failure: Error | undefined
  let ended = false
  let closed = false
  let notify: (() => void) | undefined
  const poke = () => {
    const resolve = notify
    notify = undefined
    resolve?.()
  }
  const end = () => {
    ended = true
    poke()
  }
  stream.on('readable', poke)
  stream.on('end', end)
  stream.on('close', end)
  stream.on('error', (error: Error) => {
    failure ??= error
    poke()
  })
  return {
    /** A batch; undefined once the stream ended or `close` was called; throws the stream's error. */
    async next(max: number): Promise<T[] | undefined> {
      for (;;) {
        if (closed) return undefined
        const items: T[] = []
        while (items.length < max) {
          const item: unknown = stream.read()
          if (item === null) break
          items.push(item as T)
        }
        if (items.length > 0) return items
        if (failure) throw failure
        if (ended) return undefined
        await new Promise<void>((resolve) => (notify = resolve))
      }
    },
    close() {
      closed = true
      poke()
    },
  }
}

/**
 * Catch-up then live on $all. Catch-up reads $all in pages until a read comes back short, then
 * signals `onCaughtUp`, then follows a live subscription from the last position read. The client's
 * own 'caughtUp' event is not used: servers before 23.10 never send it, and it is emitted ahead of
 * events still buffered in the stream, so it cannot mark "history delivered" by itself.
 */
function subscribeToAll(
  client: EventStoreDBClient,
  options: { from?: Position; batchSize?: number },
  handler: SubscriptionHandler,
  onError: (error: unknown) => void,
): Subscription {
  const batchSize = Math.min(Math.max(1, options.batchSize ?? EVENTSTOREDB_LIMITS.defaultBatchSize), EVENTSTOREDB_LIMITS.maxBatchSize)
  // Last position delivered or skipped; every (re)subscription starts strictly after it.
  let position: Position = options.from ?? START
  let stopped = false
  let caughtUp = false
  const interrupts: Interrupts = new Set()

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        interrupts.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      interrupts.add(wake)
    })

  async function catchUp(progressed: () => void): Promise<void> {
    while (!stopped) {
      const page = await readAllPage(client, position, batchSize, interrupts)
      if (stopped) return
      if (page.events.length > 0) await handler.onEvents(page.events)
      if (page.last !== undefined) position = page.last
      progressed()
      if (page.atHead || page.last === undefined) return
    }
  }

  async function followLive(progressed: () => void): Promise<void> {
    const live = client.subscribeToAll({ fromPosition: toEsdbReadPosition(position), resolveLinkTos: false })
    const reader = batchReader<AllStreamResolvedEvent>(live)
    const interrupt = () => reader.close()
    interrupts.add(interrupt)
    try {
      while (!stopped) {
        const batch = await reader.next(batchSize)
        if (batch === undefined) {
          if (stopped) return
          throw new Error('EventStoreDB ended the $all subscription')
        }
        const events: RecordedEvent[] = []
        let last = position
        for (const resolved of batch) {
          if (!resolved.event) continue
          const eventPosition = fromEsdbPosition(resolved.event.position)
          // The server's start is exclusive already; this also guards a reconnect that replays.
          if (last !== START && comparePositions(eventPosition, last) <= 0) continue
          last = eventPosition
          const recorded = toRecordedEvent(resolved)
          if (recorded) events.push(recorded)
        }
        if (events.length > 0) await handler.onEvents(events)
        position = last
        progressed()
      }
    } finally {
      interrupts.delete(interrupt)
      reader.close()
      // unsubscribe rejects when the call never connected; there is nothing left to cancel then.
      await live.unsubscribe().catch(() => undefined)
      live.destroy()
    }
  }

  async function run(): Promise<void> {
    let backoffMs: number = EVENTSTOREDB_LIMITS.minResubscribeMs
    const progressed = () => {
      backoffMs = EVENTSTOREDB_LIMITS.minResubscribeMs
    }
    while (!stopped) {
      try {
        if (!caughtUp) {
          await catchUp(progressed)
          if (stopped) break
          caughtUp = true
          handler.onCaughtUp?.()
        }
        await followLive(progressed)
      } catch (error) {
        if (stopped) break
        // A drop or a failed batch: resubscribe from the last delivered position, after a pause.
        onError(error)
        await sleep(backoffMs)
        backoffMs = nextBackoffMs(backoffMs)
      }
    }
  }

  const done = run()
  return {
    done,
    async stop() {
      stopped = true
      for (const interrupt of [...interrupts]) interrupt()
      await done
    },
  }
}

// ---- The store ----

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

    async appendToStream(stream, events, appendOptions) {
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
