// Opens what the server and the CLI share: the database (embedded by default), the read-model
// schema, the event store (Postgres, or EventStoreDB when EVENTSTORE_URL is set) and the projectors.
import type { Kysely } from 'kysely'
import type pg from 'pg'
import type { EventStore } from '../events/store/port.js'
import { getPostgresEventStore } from '../events/store/postgres/index.js'
import { allProjectors } from '../projections/allProjectors.js'
import { migrateToLatest, openReadDatabase } from '../projections/database.js'
import type { ConsumerBackoff } from '../projections/runtime/consumerGuard.js'
import { PROJECTIONS_CONSUMER } from '../projections/runtime/consumerRecords.js'
import { type ProjectionRunner, createProjectionRunner } from '../projections/runtime/projectionRunner.js'
import type { ReadDatabase } from '../projections/schema.js'
import { SUBSCRIBER_CHECKPOINT } from '../webhooks/subscriber/storeBatch.js'
import { type WebhookDelivery, createWebhookDelivery } from '../webhooks/webhookDelivery.js'
import type { Config } from './config.js'
import { type EmbeddedCluster, startEmbeddedPostgres } from './database/embeddedPostgres.js'

export const EMBEDDED_DATABASE_NAME = 'payments'

/** Every event consumer the runtime runs, by the name its failures and skips are recorded under. */
export const CONSUMER_NAMES = [PROJECTIONS_CONSUMER, SUBSCRIBER_CHECKPOINT] as const

export type Runtime = {
  config: Config
  databaseUrl: string
  db: Kysely<ReadDatabase>
  pool: pg.Pool
  store: EventStore
  runner: ProjectionRunner
  /** Created here, started by the process that delivers webhooks (server/main.ts). */
  webhooks: WebhookDelivery
  embedded: EmbeddedCluster | undefined
  close(): Promise<void>
}

type Log = { info: (msg: string) => void; error: (obj: unknown, msg?: string) => void }

export type RuntimeOptions = {
  poolSize?: number
  /** Back-off of a consumer failing on an event (tests shorten it; production uses CONSUMER_BACKOFF). */
  consumerBackoff?: Partial<ConsumerBackoff>
  /** The server's: a cluster left running by a killed server stops with this one. */
  takeOverEmbedded?: boolean
}

export async function openRuntime(config: Config, log: Log, options: RuntimeOptions = {}): Promise<Runtime> {
  let embedded: EmbeddedCluster | undefined
  let databaseUrl = config.DATABASE_URL
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, database: EMBEDDED_DATABASE_NAME, log: () => undefined, takeOver: options.takeOverEmbedded ?? false })
    databaseUrl = embedded.connectionString(EMBEDDED_DATABASE_NAME)
    log.info(`embedded PostgreSQL on port ${embedded.port} (data in ${config.DATA_DIR})`)
  }
  let closing = false
  const { db, pool } = openReadDatabase(databaseUrl, options.poolSize, (error) => {
    if (!closing) log.error({ err: error }, 'read database connection error')
  })
  await migrateToLatest(db)
  const onError = (error: unknown) => log.error({ err: error }, 'event store error')
  let store: EventStore
  if (config.EVENTSTORE_URL) {
    // Loaded only when configured: the gRPC client is heavy and the default never needs it.
    const { getEventStoreDbEventStore } = await import('../events/store/eventstoredb/index.js')
    store = await getEventStoreDbEventStore({ connectionString: config.EVENTSTORE_URL, onError })
  } else {
    store = await getPostgresEventStore({ connectionString: databaseUrl, onError })
  }
  const runner = createProjectionRunner({ store, db, projectors: allProjectors, log, backoff: options.consumerBackoff })
  const webhooks = createWebhookDelivery({
    db, store, environment: config.APP_ENV, retryScheduleMs: config.WEBHOOK_RETRY_SCHEDULE_MS,
    onError: (e, message) => log.error({ err: e }, message),
    log,
    consumerBackoff: options.consumerBackoff,
  })

  return {
    config, databaseUrl, db, pool, store, runner, webhooks, embedded,
    async close() {
      closing = true
      await webhooks.stop()
      await runner.stop()
      await store.close()
      await db.destroy()
      await embedded?.stop()
    },
  }
}
