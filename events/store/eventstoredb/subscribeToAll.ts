// Catch-up then live on $all, resubscribing from the last delivered position with backoff.
import type { AllStreamResolvedEvent, EventStoreDBClient } from '@eventstore/db-client'
import { type Position, type RecordedEvent, START, type Subscription, type SubscriptionHandler } from '../port.js'
import { comparePositions } from '../positions.js'
import { batchReader } from './batchReader.js'
import { EVENTSTOREDB_LIMITS } from './limits.js'
import { fromEsdbPosition, toEsdbReadPosition, toRecordedEvent } from './mappings.js'
import { type Interrupts, readAllPage } from './readAllPage.js'

export function nextBackoffMs(currentMs: number): number {
  return Math.min(currentMs * 2, EVENTSTOREDB_LIMITS.maxResubscribeMs)
}

/**
 * Catch-up then live on $all. Catch-up reads $all in pages until a read comes back short, then
 * signals `onCaughtUp`, then follows a live subscription from the last position read. The client's
 * own 'caughtUp' event is not used: servers before 23.10 never send it, and it is emitted ahead of
 * events still buffered in the stream, so it cannot mark "history delivered" by itself.
 */
export function subscribeToAll(
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
