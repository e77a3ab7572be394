// Which of a batch's events a consumer applies, and which become its dead letters: the event the
// guard gave up on ('failed'), and every later event of a stream parked for that consumer ('behind'),
// so order within a stream holds while the consumer goes on with every other stream.
import type { Position, RecordedEvent } from '../store/port.js'
import { type NewDeadLetter, type ParkedStreams, readParkedStreams } from './deadLetters.js'

/** An event the guard gave up on, for one consumer of the group: parked by the next attempt's batch. */
export type ParkRequest = { consumer: string; eventId: string; error: string; attempts: number }

type SqlRunner = Parameters<typeof readParkedStreams>[0]

/**
 * The streams of `events` blocked for each consumer, from their first blocked position: those with
 * letters already (read only for `withLetters`, the consumers whose checkpoint row counts some), and
 * those of the events this batch parks.
 */
export async function blockedStreams(
  db: SqlRunner,
  withLetters: readonly string[],
  events: readonly RecordedEvent[],
  parks: readonly ParkRequest[],
): Promise<ParkedStreams> {
  const blocked =
    withLetters.length > 0
      ? await readParkedStreams(
          db,
          withLetters,
          events.map((e) => e.stream),
        )
      : new Map<string, Map<string, Position>>()
  for (const park of parks) {
    const event = events.find((e) => e.id === park.eventId)
    if (!event) continue
    const byStream = blocked.get(park.consumer) ?? new Map<string, Position>()
    const first = byStream.get(event.stream)
    if (first === undefined || event.position < first) byStream.set(event.stream, event.position)
    blocked.set(park.consumer, byStream)
  }
  return blocked
}

export type Split = { apply: RecordedEvent[]; letters: NewDeadLetter[] }

/** Splits a consumer's fresh events (in commit order) into those it applies and its new letters. */
export function splitFresh(
  consumer: string,
  group: string,
  fresh: readonly RecordedEvent[],
  blocked: ParkedStreams,
  parks: readonly ParkRequest[],
): Split {
  const split: Split = { apply: [], letters: [] }
  const streams = blocked.get(consumer)
  for (const event of fresh) {
    const park = parks.find((p) => p.consumer === consumer && p.eventId === event.id)
    const from = streams?.get(event.stream)
    if (park) split.letters.push({ consumer, group, event, reason: 'failed', error: park.error, attempts: park.attempts })
    else if (from !== undefined && event.position >= from)
      split.letters.push({ consumer, group, event, reason: 'behind', error: null, attempts: 0 })
    else split.apply.push(event)
  }
  return split
}
