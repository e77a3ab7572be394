// Inline projections (the Postgres store): every projector applies the events an append writes
// inside the append's own transaction, from the events still in memory (no read-back, no second
// decryption), so one commit carries the events and their rows and a command reads its own write
// with no wait. Group commit still applies: a batch's appends share the transaction, each running
// its projectors in turn. A projector that throws fails the append (the command answers with the
// error body) and nothing of it is stored. The same projectors run asynchronously on the consumer
// runtime (projectionRunner.ts) when the store cannot share a transaction (EventStoreDB) or the
// database's mode says so (projectionMode.ts).
import { Kysely, PostgresDialect, type PostgresPool } from 'kysely'
import { parsedForConsumers } from '../../events/consumers/applyBatch.js'
import { withAppend } from '../../events/store/appendWrapper.js'
import type { EventStore, InTransactionStep, RecordedEvent, TransactionConnection } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import { type ProjectionContext, type Projector, applyEvents } from './projector.js'
import type { ProjectionGroup } from './projectionRunner.js'

/** A Kysely that runs every statement on `connection` (inside its transaction), never releasing it. */
function kyselyOn(connection: TransactionConnection): Kysely<ReadDatabase> {
  const client = { query: (text: string, values: readonly unknown[]) => connection.query(text, [...values]), release: () => undefined }
  const pool = { connect: async () => client, end: async () => undefined }
  return new Kysely<ReadDatabase>({ dialect: new PostgresDialect({ pool: pool as unknown as PostgresPool }) })
}

/** One Kysely per pooled connection, made on its first inline append and kept with it. */
const kyselies = new WeakMap<TransactionConnection, Kysely<ReadDatabase>>()

function readDatabaseOn(connection: TransactionConnection): Kysely<ReadDatabase> {
  let db = kyselies.get(connection)
  if (!db) {
    db = kyselyOn(connection)
    kyselies.set(connection, db)
  }
  return db
}

/** The step that applies `recorded` to every projector handling some of it, in projector order. */
export function inlineProjectionStep(projectors: readonly Projector[], ctx: ProjectionContext): InTransactionStep {
  return async (connection, recorded) => {
    let parsed: RecordedEvent[] | undefined
    for (const projector of projectors) {
      if (!recorded.some((e) => projector.handles.has(e.type))) continue
      parsed ??= recorded.map(parsedForConsumers)
      await applyEvents(
        projector,
        readDatabaseOn(connection),
        parsed.filter((e) => projector.handles.has(e.type)),
        ctx,
      )
    }
  }
}

/** `store` with `step` run in every append's transaction (after a step the caller gave, if any). */
export function withInlineProjections(store: EventStore, step: InTransactionStep): EventStore {
  if (!store.supportsInTransaction) throw new Error(`A ${store.kind} store cannot run projections inline`)
  return withAppend(
    store,
    (stream, events, options) => {
      const own = options?.inTransaction
      const inTransaction: InTransactionStep = own
        ? async (connection, recorded) => {
            await own(connection, recorded)
            await step(connection, recorded)
          }
        : step
      return store.appendToStream(stream, events, { ...options, inTransaction })
    },
    true,
  )
}

/**
 * The projection group of a process whose read models are kept inline: every row is committed with
 * its events, so there is nothing to run, catch up or wait for, and nothing is ever parked (a
 * projector that throws fails the append instead).
 */
export function inlineProjectionGroup(): ProjectionGroup {
  return {
    start: async () => undefined,
    stop: async () => undefined,
    catchUp: async () => undefined,
    progress: () => new Map(),
    health: () => ({ status: 'ok' }),
    waitFor: async () => true,
    replayParked: async () => [],
  }
}
