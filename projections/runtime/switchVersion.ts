// Brings a projection's incoming tables (a rebuild's fresh ones, or the kept version on a rollback) up
// to the head of $all beside the live ones, then switches them in within one transaction, keeping the
// live ones as the projection's previous version (keptVersions.ts).
//
// Catching up runs in short transactions of its own, pass after pass while the API goes on writing,
// until a pass finds little left. The switch then holds, for the tail alone:
// - inline (the Postgres store's default): the append lock alone, so appends wait a moment; the tail is
//   read whole (nothing is in flight) and the live tables hold every event up to it;
// - async: the projector's checkpoint row, so the live projector pauses; the live tables hold exactly
//   what the checkpoint says, and the projector resumes after the tail.
// Either way the checkpoint moves to where the incoming tables stand, and the live tables' own position
// is recorded with them, so a rollback resumes them exactly.
import { type Kysely, sql } from 'kysely'
import { lockCheckpoint, setCheckpoint } from '../../events/consumers/checkpoints.js'
import { clearDeadLetters } from '../../events/consumers/deadLetters.js'
import { IN_TRANSACTION_APPEND_LOCK } from '../../events/store/postgres/appendBatch.js'
import type { EventStore, Position } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import { keptSchemaOf, moveKeptPosition, recordKeptVersion } from './keptVersions.js'
import { databaseProjectionMode } from './projectionMode.js'
import type { ProjectionContext, Projector } from './projector.js'
import { type Apply, replay } from './replay.js'
import { isLockTimeout, swapTables } from './tableSwap.js'

export const SWITCH_LIMITS = {
  /** Catch-up passes before the switch: each one reads what the API appended during the last. */
  maxCatchUpPasses: 10,
  /** A pass that read no more than this leaves a tail short enough to apply under the lock. */
  tailEvents: 2_000,
  /** Switches tried when readers held the live tables past the swap's lock timeout (tableSwap.ts). */
  maxSwitchAttempts: 5,
} as const

/** Where an operation stands: building (a rebuild from the first event), catching up, or switching (the tail, under the lock). */
export type SwitchPhase = 'build' | 'catch-up' | 'switch'

/** What a rebuild or a rollback reports as it goes (at every batch; the CLI prints some). */
export type SwitchProgress = {
  projection: string
  phase: SwitchPhase
  /** Events of $all read so far (handled or not). */
  events: number
  /** Where the incoming tables started, and where they are now. */
  from: Position
  position: Position
}

export type SwitchPlan = {
  store: EventStore
  db: Kysely<ReadDatabase>
  projector: Projector
  ctx: ProjectionContext
  /** The schema holding the incoming tables, and the last event they hold. */
  incoming: string
  from: Position
  skipped: ReadonlySet<string>
  replacedBy: 'rebuild' | 'rollback'
  /** The incoming tables are the kept version: each catch-up batch moves its recorded position along with its rows. */
  incomingIsKept: boolean
  onProgress?: (progress: SwitchProgress) => Promise<void> | void
}

export type Switched = {
  /** Events of $all read, catch-up and tail. */
  events: number
  /** Where the new live tables stand (and the projector's checkpoint). */
  position: Position
  /** Where the tables moved aside stand. */
  keptPosition: Position
  /** Their dead letters, cleared (asynchronous projections). */
  keptDeadLetters: number
}

export async function switchVersion(plan: SwitchPlan): Promise<Switched> {
  const { store, db, projector, ctx, incoming } = plan
  const name = projector.name
  // Short transactions that need not wait for the WAL flush: a crash loses rows and recorded position together.
  const inBatch: Apply = (work, through) =>
    db.connection().execute(async (conn) => {
      // (No parameters: one simple query, both statements in one round trip.)
      await sql.raw('BEGIN; SET LOCAL synchronous_commit TO OFF').execute(conn)
      try {
        await work(conn.withSchema(incoming))
        if (plan.incomingIsKept) await moveKeptPosition(conn, name, through)
        await sql.raw('COMMIT').execute(conn)
      } catch (error) {
        await sql
          .raw('ROLLBACK')
          .execute(conn)
          .catch(() => undefined)
        throw error
      }
    })
  let at = plan.from
  let events = 0
  const report = (phase: SwitchPhase, position: Position) =>
    plan.onProgress?.({ projection: name, phase, events, from: plan.from, position })

  const catchUp = async () => {
    for (let pass = 0; pass < SWITCH_LIMITS.maxCatchUpPasses; pass++) {
      const phase: SwitchPhase = at === plan.from && plan.replacedBy === 'rebuild' ? 'build' : 'catch-up'
      const before = events
      const done = await replay(store, inBatch, projector, ctx, {
        from: at,
        skipped: plan.skipped,
        onBatch: async (p) => {
          events = before + p.events
          await report(phase, p.position)
        },
      })
      events = before + done.events
      at = done.position
      if (done.events <= SWITCH_LIMITS.tailEvents) return
    }
  }
  const inline = (await databaseProjectionMode(db)) === 'inline'

  for (let attempt = 1; ; attempt++) {
    await catchUp()
    await report('switch', at)
    try {
      return await db.transaction().execute(async (trx) => {
        // Inline: the append lock held alone makes appends wait (each holds it shared until it commits).
        // Async: the checkpoint row's lock pauses the live projector; it tells where the live tables stand.
        let livePosition: Position | undefined
        if (inline) await sql`SELECT pg_advisory_xact_lock(${IN_TRANSACTION_APPEND_LOCK})`.execute(trx)
        else livePosition = await lockCheckpoint(trx, name)
        const scoped = trx.withSchema(incoming)
        const tail = await replay(store, (work) => work(scoped), projector, ctx, {
          from: at,
          skipped: plan.skipped,
          pastRunningTransactions: inline,
        })
        // The incoming tables hold every event, parked ones too (a replay stops on one that still fails): the
        // live version's dead letters leave with it (counted in its record), or they would be applied twice.
        const keptDeadLetters = await clearDeadLetters(trx, name)
        await swapTables(trx, name, projector.tables, incoming)
        await setCheckpoint(trx, name, tail.position)
        // Inline, nothing is in flight under the lock: the live tables held every event up to the tail's end.
        const keptPosition = livePosition ?? tail.position
        await recordKeptVersion(trx, {
          projection: name,
          schema: keptSchemaOf(name),
          tables: [...projector.tables],
          position: keptPosition,
          deadLetters: keptDeadLetters,
          replacedBy: plan.replacedBy,
        })
        return { events: events + tail.events, position: tail.position, keptPosition, keptDeadLetters }
      })
    } catch (error) {
      if (!isLockTimeout(error) || attempt >= SWITCH_LIMITS.maxSwitchAttempts) throw error
    }
  }
}
