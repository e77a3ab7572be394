// One page of $all: the port events strictly after a position, with where the next page starts.
import { type EventStoreDBClient, FORWARDS } from '@eventstore/db-client'
import { type Position, type RecordedEvent, START } from '../port.js'
import { comparePositions } from '../positions.js'
import { fromEsdbPosition, toEsdbReadPosition, toRecordedEvent } from './mappings.js'

/** Cancels in-flight reads and sleeps when a subscription stops. */
export type Interrupts = Set<() => void>

export type Page = {
  events: RecordedEvent[]
  /** Position of the last event examined, system events included: where the next page starts. */
  last: Position | undefined
  /** The read came back short: nothing after `last` was committed when it ran. */
  atHead: boolean
}

/** Up to `count` port events of $all strictly after `after`. */
export async function readAllPage(client: EventStoreDBClient, after: Position, count: number, interrupts?: Interrupts): Promise<Page> {
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
