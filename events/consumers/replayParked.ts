// Replays one (consumer, stream)'s dead letters in position order: a `prepare` consumer (a workflow)
// runs each event's step, then a transaction deletes the letters it ran; an `apply` consumer (a
// projector, the webhook subscriber, a timer consumer) applies them in a transaction that also
// deletes them. It stops at the first letter that fails again: that one stays, now 'failed' with one
// attempt more and the new error, and every letter behind it stays too. A letter whose event an
// operator skipped is passed over (deleted), as the live runtime passes over a skipped event.
//
// Why this cannot interleave wrongly with the live runtime, or with another replay: every write of
// a consumer's letters holds its checkpoint row lock (the batch's UPDATE, or lockCheckpoint here),
// and each replay transaction reads the stream's letters again after taking it. So a live batch
// either committed before (its new 'behind' letters are seen here; those not yet run are left for
// the next round) or runs after (it finds the letters gone and applies the stream's next events
// itself: every letter before them was applied first). A letter another replay finished meanwhile is
// gone when read again, and is not applied twice. A `prepare` step runs outside the transaction (a
// transaction held open across commands would hold back every $all reader): steps are idempotent, and
// each replay runs a stream's letters in order, so a concurrent replay's repeat of a step is a no-op.
// A live batch that saw the letters before prepare and finds them gone in its transaction prepares
// again (applyBatch.ts). Rounds repeat while new letters arrive, at most REPLAY_LIMITS.maxRounds.
import { type Kysely, sql } from 'kysely'
import type { EventStore, RecordedEvent } from '../store/port.js'
import { streamPages } from '../store/streamPages.js'
import { parsedForConsumers } from './applyBatch.js'
import { lockCheckpoint } from './checkpoints.js'
import type { Consumer } from './consumer.js'
import { asConsumer } from './consumerFailedError.js'
import { type DeadLetter, deleteDeadLetters, letterFailedAgain, lettersOfStream, recountDeadLetters } from './deadLetters.js'
import { describeFailure } from './failureText.js'
import { recordParkedReplay } from './parkedReplays.js'
import { isTransientFailure } from './transientFailure.js'

export const REPLAY_LIMITS = {
  /** Rounds of one stream's replay: each takes the letters live batches added during the last. */
  maxRounds: 20,
} as const

export type ReplayOutcome = {
  consumer: string
  group: string
  stream: string
  /** Letters applied, in order. */
  replayed: string[]
  /** Letters passed over: an operator skipped their event. */
  skipped: string[]
  /** The letter that failed again (it and those behind it stay parked). */
  failed?: { eventId: string; error: string }
  /** Letters of this (consumer, stream) still parked. */
  remaining: number
}

export type ReplayDeps<DB> = {
  db: Kysely<DB>
  store: EventStore
  group: string
  consumer: Consumer<DB>
  isSkipped: (eventId: string) => boolean
  actor: string
}

/** The letters' events, parsed as the runtime hands them to consumers; found by id from the first letter's revision. */
async function eventsOf(store: EventStore, stream: string, letters: readonly DeadLetter[]): Promise<Map<string, RecordedEvent>> {
  const wanted = new Set(letters.map((l) => l.eventId))
  const found = new Map<string, RecordedEvent>()
  const from = letters.reduce((low, l) => (l.streamRevision < low ? l.streamRevision : low), letters[0]!.streamRevision)
  for await (const page of streamPages(store, stream, from)) {
    for (const event of page) if (wanted.has(event.id)) found.set(event.id, parsedForConsumers(event))
    if (found.size === wanted.size) break
  }
  const missing = letters.find((l) => !found.has(l.eventId))
  if (missing) throw new Error(`event ${missing.eventId} of ${stream} (a dead letter) is not in the event store`)
  return found
}

type Failure = { eventId: string; error: unknown }

/** Runs the `prepare` step of each letter in order, outside any transaction; stops at the first that fails. */
async function prepareLetters<DB>(deps: ReplayDeps<DB>, letters: readonly DeadLetter[], events: ReadonlyMap<string, RecordedEvent>) {
  const prepared: string[] = []
  const { consumer } = deps
  if (!consumer.prepare) return { prepared: letters.map((l) => l.eventId), failure: undefined }
  for (const letter of letters) {
    const event = events.get(letter.eventId)!
    if (!deps.isSkipped(event.id)) {
      try {
        await asConsumer(consumer, [event], () => consumer.prepare!([event]))
      } catch (error) {
        if (isTransientFailure(error)) throw error
        return { prepared, failure: { eventId: letter.eventId, error } satisfies Failure }
      }
    }
    prepared.push(letter.eventId)
  }
  return { prepared, failure: undefined }
}

/** One round: the letters read now, run in order, committed with their deletion under the checkpoint lock. */
async function replayRound<DB>(deps: ReplayDeps<DB>, stream: string, outcome: ReplayOutcome): Promise<'again' | 'done'> {
  const { consumer } = deps
  const letters = await lettersOfStream(deps.db, consumer.name, stream)
  if (letters.length === 0) return 'done'
  const events = await eventsOf(deps.store, stream, letters)
  const { prepared, failure: prepareFailure } = await prepareLetters(deps, letters, events)
  return deps.db.connection().execute(async (conn) => {
    await sql.raw('BEGIN').execute(conn)
    try {
      await lockCheckpoint(conn, consumer.name)
      const present = new Set((await lettersOfStream(conn, consumer.name, stream)).map((l) => l.eventId))
      const replayed: string[] = []
      const skipped: string[] = []
      let failure: Failure | undefined
      for (const eventId of prepared.filter((id) => present.has(id))) {
        const event = events.get(eventId)!
        if (deps.isSkipped(eventId)) {
          skipped.push(eventId)
          continue
        }
        if (consumer.apply) {
          // Only this event's effects go when it fails: the ones before it commit with their deletion.
          await sql.raw('SAVEPOINT parked_replay').execute(conn)
          try {
            await asConsumer(consumer, [event], () => consumer.apply!(conn, [event]))
            await sql.raw('RELEASE SAVEPOINT parked_replay').execute(conn)
          } catch (error) {
            await sql.raw('ROLLBACK TO SAVEPOINT parked_replay').execute(conn)
            if (isTransientFailure(error)) throw error
            failure = { eventId, error }
            break
          }
        }
        replayed.push(eventId)
      }
      if (!failure && prepareFailure && present.has(prepareFailure.eventId)) failure = prepareFailure
      await deleteDeadLetters(conn, consumer.name, [...replayed, ...skipped])
      const error = failure ? describeFailure(failure.error) : null
      if (failure) await letterFailedAgain(conn, consumer.name, failure.eventId, error!)
      outcome.remaining = await recountStream(conn, consumer.name, stream)
      await recordParkedReplay(conn, {
        consumer: consumer.name,
        group: deps.group,
        stream,
        actor: deps.actor,
        outcome: failure ? 'failed' : 'replayed',
        replayedEventIds: replayed,
        skippedEventIds: skipped,
        failedEventId: failure?.eventId ?? null,
        error,
      })
      await sql.raw('COMMIT').execute(conn)
      outcome.replayed.push(...replayed)
      outcome.skipped.push(...skipped)
      if (failure) outcome.failed = { eventId: failure.eventId, error: error! }
      return failure || outcome.remaining === 0 ? 'done' : 'again'
    } catch (error) {
      await sql
        .raw('ROLLBACK')
        .execute(conn)
        .catch(() => undefined)
      throw error
    }
  })
}

/** The consumer's count again, and how many letters this stream still has. */
async function recountStream(db: Parameters<typeof recountDeadLetters>[0], consumer: string, stream: string): Promise<number> {
  await recountDeadLetters(db, consumer)
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::integer AS n FROM consumer_parked WHERE consumer = ${consumer} AND stream = ${stream}`.execute(db)
  return rows[0]?.n ?? 0
}

export async function replayParkedStream<DB>(deps: ReplayDeps<DB>, stream: string): Promise<ReplayOutcome> {
  const outcome: ReplayOutcome = { consumer: deps.consumer.name, group: deps.group, stream, replayed: [], skipped: [], remaining: 0 }
  for (let round = 0; round < REPLAY_LIMITS.maxRounds; round++) {
    if ((await replayRound(deps, stream, outcome)) === 'done') break
  }
  return outcome
}
