// Marks of $all (id, type, position, time) for lag and staleness. The client has no projection of
// fields, so a page is read whole and cut down; the head is read backwards past system events.
import { BACKWARDS, END, type EventStoreDBClient } from '@eventstore/db-client'
import type { EventMark, Position, RecordedEvent } from '../port.js'
import { EVENTSTOREDB_LIMITS } from './limits.js'
import { toRecordedEvent } from './mappings.js'
import { readAllPage } from './readAllPage.js'

const toMark = (e: RecordedEvent): EventMark => ({ id: e.id, type: e.type, position: e.position, recordedAt: e.recordedAt })

/** Up to `count` marks after `after`; several pages only when system events thin one out. */
export async function readAllMarks(client: EventStoreDBClient, after: Position, count: number): Promise<EventMark[]> {
  const marks: EventMark[] = []
  let from = after
  while (marks.length < count) {
    const page = await readAllPage(client, from, count - marks.length)
    marks.push(...page.events.map(toMark))
    if (page.atHead || page.last === undefined) break
    from = page.last
  }
  return marks
}

/** The last port event of $all; system events after it ($statsCollected, ...) are passed over, at most a bounded number. */
export async function readHead(client: EventStoreDBClient): Promise<EventMark | undefined> {
  const read = client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: EVENTSTOREDB_LIMITS.maxHeadScan })
  let head: EventMark | undefined
  // Read the page to its end rather than break: breaking leaves the gRPC call half-read (readAllPage.ts).
  for await (const resolved of read) {
    if (head) continue
    const recorded = toRecordedEvent(resolved)
    if (recorded) head = toMark(recorded)
  }
  return head
}
