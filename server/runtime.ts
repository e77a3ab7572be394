// Opens what the server and the CLI share: the database (embedded by default), the read-model
// schema, the event store (Postgres, or EventStoreDB when EVENTSTORE_URL is set) and the projectors.
import type { Kysely } from 'kysely'
import type pg from 'pg'
import { type SchedulerDatabase, openSchedulerDatabase } from '../commands/scheduler/schema.js'
import { timerConsumers } from '../commands/scheduler/timerConsumers.js'
import { type CommandRuntime, createCommandRuntime } from '../commands/runtime/commandRuntime.js'
import { createPostgresSnapshotStore, openSnapshotDatabase } from '../commands/runtime/postgresSnapshotStore.js'
import { createPostgresStreamLock } from '../commands/runtime/postgresStreamLock.js'
import { snapshotting } from '../commands/runtime/snapshots.js'
import type { EventStore, Position } from '../events/store/port.js'
import { getPostgresEventStore } from '../events/store/postgres/index.js'
import { allProjectors } from '../projections/allProjectors.js'
import { migrateToLatest, openReadDatabase } from '../projections/database.js'
import { allWorkflows } from '../commands/workflows/allWorkflows.js'
import { workflowCheckpointName } from '../commands/workflows/workflowConsumer.js'
import { type ConsumerRuntime, createConsumerRuntime } from '../events/consumers/consumerRuntime.js'
import { loadAuditSigner } from '../events/integrity/auditSigningKey.js'
import type { AuditSealing } from './audit/auditCheckpoints.js'
import { AUDIT_TREE_LIMITS, MERKLE_SEALER, merkleSealer } from '../events/integrity/merkleSealer.js'
import { WORKFLOWS_CONSUMER, type WorkflowRunner, createWorkflowRunner } from '../commands/workflows/workflowRunner.js'
import type { ConsumerBackoff } from '../events/consumers/consumerGuard.js'
import { PROJECTIONS_CONSUMER, type ProjectionGroup, createProjectionRunner } from '../projections/runtime/projectionRunner.js'
import { inlineProjectionGroup, inlineProjectionStep, withInlineProjections } from '../projections/runtime/inlineProjections.js'
import { type ProjectionMode, settleProjectionMode } from '../projections/runtime/projectionMode.js'
import type { ReadDatabase } from '../projections/schema.js'
import { SUBSCRIBER_CHECKPOINT } from '../webhooks/subscriber/storeBatch.js'
import { type WebhookDelivery, createWebhookDelivery } from '../webhooks/webhookDelivery.js'
import { type DataProtection, dataProtection } from '../events/protection/dataProtection.js'
import { postgresDataKeyStore } from '../events/protection/dataKeys.js'
import { openDataKeyCreationDatabase, openDataKeyDatabase } from '../events/protection/tables.js'
import { eventCodec } from '../events/protection/eventCodec.js'
import { type LocalKeySource, keyManagementFor, loadLocalKeySource } from '../events/protection/localKeySource.js'
import { protectedEventStore } from '../events/protection/protectedEventStore.js'
import type { Config } from './config.js'
import { countingEventStore } from './metrics/countingEventStore.js'
import { type ServiceMetrics, createServiceMetrics } from './metrics/serviceMetrics.js'
import { type EmbeddedCluster, startEmbeddedPostgres } from './database/embeddedPostgres.js'

export const EMBEDDED_DATABASE_NAME = 'payments'

/** A delivery's next status as the outcome label of webhook_delivery_outcomes_total. */
const DELIVERY_OUTCOMES = { SUCCEEDED: 'succeeded', FAILED: 'failed', PENDING: 'retrying' } as const

/** Every event consumer the runtime runs, by the name its failures and skips are recorded under. */
export const CONSUMER_NAMES = [PROJECTIONS_CONSUMER, SUBSCRIBER_CHECKPOINT, WORKFLOWS_CONSUMER, MERKLE_SEALER] as const

/** The checkpoints a consumer group keeps (every projector's for the runner; one each otherwise). */
export function consumerCheckpointNames(consumer: string): string[] {
  if (consumer === PROJECTIONS_CONSUMER) return allProjectors.map((p) => p.name)
  if (consumer === WORKFLOWS_CONSUMER) return allWorkflows.map(workflowCheckpointName)
  return [consumer]
}

export type Runtime = {
  config: Config
  databaseUrl: string
  db: Kysely<ReadDatabase>
  /** The scheduler's table, on the same pool as `db`. */
  schedulerDb: Kysely<SchedulerDatabase>
  pool: pg.Pool
  /** The event store behind the event codec: sensitive fields sealed on append, opened on read; projectors inline when the mode is. */
  store: EventStore
  /**
   * The same store without the codec: every event exactly as stored, sealed fields as ciphertext. Only for
   * what must see the stored bytes (audit verify and export: the hash chain covers them); never for commands.
   */
  storedEvents: EventStore
  /** The one way this process runs commands (routes, the CLI, timers, workflows, the dispatcher). */
  commands: CommandRuntime
  /** How this database keeps its read models (projections/runtime/projectionMode.ts). */
  projectionMode: ProjectionMode
  /** Data keys and field sealing, for what the read side and documents keep. */
  protection: DataProtection
  /** Where the key-encryption keys come from (KEK rotation adds one). */
  keySource: LocalKeySource
  /** How the audit checkpoints are signed and sent (events/integrity/checkpointSealer.ts), and how often. */
  auditSealing: AuditSealing
  /** The projectors and the workflows of this process; waitFor covers both (read-your-writes). */
  runner: ReadSideRunner
  /** Created here, started by the process that delivers webhooks (server/main.ts). */
  webhooks: WebhookDelivery
  embedded: EmbeddedCluster | undefined
  /** This instance's Prometheus registry and instruments (server/metrics/): appends and webhook outcomes count here. */
  metrics: ServiceMetrics
  close(): Promise<void>
}

type Log = { info: (msg: string) => void; error: (obj: unknown, msg?: string) => void; warn?: (obj: unknown, msg?: string) => void }

export type ReadSideRunner = ReturnType<typeof readSideRunner>

/**
 * The projections and the workflows, started and stopped together. A write is read back once the
 * projections reached it and what the workflows did about it (archiving a customer expires its
 * sessions: a GET right after the archive shows them expired).
 */
function readSideRunner(projections: ProjectionGroup, workflows: WorkflowRunner, auditTree: ConsumerRuntime, store: EventStore) {
  return {
    async start(): Promise<void> {
      await projections.start()
      await workflows.start()
      await auditTree.start()
    },
    /** The projections only: the CLI reads, and issues no workflow commands. */
    catchUp: projections.catchUp,
    progress: projections.progress,
    health: projections.health,
    /** The groups themselves, for what works on one (replaying its dead letters). */
    projections,
    workflows,
    /** The Merkle sealer (events/integrity/merkleSealer.ts): never waited for, a write does not need its leaf to answer. */
    auditTree,
    /** `eventTypes`: what the write appended; when no workflow handles any of them, only the projections are waited for. */
    async waitFor(position: Position | undefined, timeoutMs: number, eventTypes?: readonly string[]): Promise<boolean> {
      if (!position) return true
      if (eventTypes && !eventTypes.some((type) => workflows.handles(type))) return projections.waitFor(position, timeoutMs)
      const deadline = Date.now() + timeoutMs
      if (workflows.running() && !(await workflows.waitFor(position, timeoutMs))) return false
      // Every workflow command so far (an upper bound of the ones this write caused), when further.
      const effects = workflows.appendedThrough()
      const through = store.comparePositions(effects, position) > 0 ? effects : position
      return projections.waitFor(through, Math.max(0, deadline - Date.now()))
    },
    async stop(): Promise<void> {
      await auditTree.stop()
      await workflows.stop()
      await projections.stop()
    },
  }
}

export type RuntimeOptions = {
  poolSize?: number
  /** Back-off of a consumer failing on an event (tests shorten it; production uses CONSUMER_BACKOFF). */
  consumerBackoff?: Partial<ConsumerBackoff>
  /** The server's: a cluster left running by a killed server stops with this one. */
  takeOverEmbedded?: boolean
  /** The bench's ceiling rows: while true, write routes answer without waiting for the read side (its consumers stopped). */
  skipReadYourWrites?: () => boolean
  /** The bench's baseline only: false stores events without their hash chain (events/store/postgres/index.ts). */
  hashChain?: boolean
}

export async function openRuntime(config: Config, log: Log, options: RuntimeOptions = {}): Promise<Runtime> {
  // First: production refuses to start without an explicit key, before anything else starts.
  const keySource = loadLocalKeySource({
    encryptionKey: config.DATA_ENCRYPTION_KEY,
    previousKeys: config.DATA_ENCRYPTION_KEY_PREVIOUS,
    dataDir: config.DATA_DIR,
    environment: config.APP_ENV,
  })
  const auditSealing = {
    signer: loadAuditSigner({ signingKey: config.AUDIT_SIGNING_KEY, dataDir: config.DATA_DIR, environment: config.APP_ENV }),
    schedule: config.WEBHOOK_RETRY_SCHEDULE_MS,
    intervalMs: config.AUDIT_CHECKPOINT_INTERVAL_MS,
  }
  let embedded: EmbeddedCluster | undefined
  let databaseUrl = config.DATABASE_URL
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.DATA_DIR,
      database: EMBEDDED_DATABASE_NAME,
      log: () => undefined,
      takeOver: options.takeOverEmbedded ?? false,
    })
    databaseUrl = embedded.connectionString(EMBEDDED_DATABASE_NAME)
    log.info(`embedded PostgreSQL on port ${embedded.port} (data in ${config.DATA_DIR})`)
  }
  let closing = false
  const { db, pool } = openReadDatabase(databaseUrl, options.poolSize, (error) => {
    if (!closing) log.error({ err: error }, 'read database connection error')
  })
  await migrateToLatest(db)
  const onError = (error: unknown) => log.error({ err: error }, 'event store error')
  // New data keys commit without a WAL flush when the events that use them share the database (tables.ts says why).
  const keyCreations = config.EVENTSTORE_URL ? undefined : openDataKeyCreationDatabase(databaseUrl, onError)
  const keysDb = openDataKeyDatabase(pool)
  const protection = dataProtection(postgresDataKeyStore(keysDb, keyManagementFor(keySource), keyCreations ?? keysDb))
  let adapter: EventStore
  if (config.EVENTSTORE_URL) {
    // Loaded only when configured: the gRPC client is heavy and the default never needs it.
    const { getEventStoreDbEventStore } = await import('../events/store/eventstoredb/index.js')
    adapter = await getEventStoreDbEventStore({ connectionString: config.EVENTSTORE_URL, onError })
  } else {
    adapter = await getPostgresEventStore({
      connectionString: databaseUrl,
      onError,
      ...(options.hashChain === false ? { hashChain: false } : {}),
    })
  }
  const metrics = createServiceMetrics()
  const sealed = countingEventStore(protectedEventStore(adapter, eventCodec(protection)), metrics.eventsAppended)
  const asyncProjections = () =>
    createProjectionRunner({ store: sealed, db, projectors: allProjectors, protection, log, backoff: options.consumerBackoff })
  const settled = await settleProjectionMode({
    db,
    inlineCapable: sealed.supportsInTransaction,
    wanted: config.PROJECTIONS,
    projectorNames: allProjectors.map((p) => p.name),
    catchUpAsync: () => asyncProjections().catchUp(),
    comparePositions: (a, b) => sealed.comparePositions(a, b),
  })
  if (settled.note) log.info(settled.note)
  const inline = settled.mode === 'inline'
  const store = inline ? withInlineProjections(sealed, inlineProjectionStep(allProjectors, { protection })) : sealed
  const projections: ProjectionGroup = inline ? inlineProjectionGroup() : asyncProjections()
  const schedulerDb = openSchedulerDatabase(pool)
  // Commands of this process on a stream another process is also writing take turns with it under
  // a lock in the (shared) read database; aggregates with a snapshot codec load from their snapshot
  // there. A write route waits for the read-side runner below (created after: it runs the
  // workflows, which run their commands here).
  const readSide: { runner?: ReadSideRunner } = {}
  const commands = createCommandRuntime({
    store,
    streamLock: createPostgresStreamLock({
      connectionString: databaseUrl,
      onError: (error) => log.error({ err: error }, 'stream lock connection error'),
    }),
    snapshots: snapshotting(createPostgresSnapshotStore(openSnapshotDatabase(pool)), {
      warn: (details, message) => (log.warn ?? log.error)(details, message),
    }),
    readYourWrites: async (position, eventTypes) => {
      if (options.skipReadYourWrites?.()) return true
      const reached = (await readSide.runner?.waitFor(position, config.PROJECTION_WAIT_MS, eventTypes)) ?? true
      if (!reached) (log.warn ?? log.error)({ position }, 'projections did not reach the command position in time')
      return reached
    },
  })
  const workflows = createWorkflowRunner({
    commands,
    db: schedulerDb,
    workflows: allWorkflows,
    protection,
    environment: config.APP_ENV,
    consumers: timerConsumers({
      customerDataRetentionDays: config.CUSTOMER_DATA_RETENTION_DAYS,
      environment: config.APP_ENV,
      commands,
      railDelays: config.SANDBOX_RAIL_DELAYS_MS,
    }),
    log,
    backoff: options.consumerBackoff,
  })
  // Its own group on its own $all subscription: in the workflows' it would make every write wait for it.
  const auditTree = createConsumerRuntime({
    name: MERKLE_SEALER,
    store,
    db,
    consumers: [merkleSealer<ReadDatabase>()],
    minBatchIntervalMs: AUDIT_TREE_LIMITS.batchIntervalMs,
    log,
    backoff: options.consumerBackoff,
  })
  const runner = readSideRunner(projections, workflows, auditTree, store)
  readSide.runner = runner
  const webhooks = createWebhookDelivery({
    db,
    store,
    commands,
    protection,
    environment: config.APP_ENV,
    retryScheduleMs: config.WEBHOOK_RETRY_SCHEDULE_MS,
    onError: (e, message) => log.error({ err: e }, message),
    log,
    consumerBackoff: options.consumerBackoff,
    onDeliveryOutcome: (status) => metrics.webhookDeliveryOutcomes.inc({ outcome: DELIVERY_OUTCOMES[status] }),
  })

  return {
    config,
    databaseUrl,
    db,
    schedulerDb,
    pool,
    store,
    storedEvents: adapter,
    commands,
    projectionMode: settled.mode,
    protection,
    keySource,
    auditSealing,
    runner,
    webhooks,
    embedded,
    metrics,
    async close() {
      closing = true
      await webhooks.stop()
      await runner.stop()
      // After everything that issues commands, before the read database closes under its saves and locks.
      await commands.close()
      await store.close()
      await keyCreations?.destroy()
      await db.destroy()
      await embedded?.stop()
    },
  }
}
