// Runs every projector on the consumer runtime (events/consumers/): one $all subscription, one
// transaction per batch holding the rows and the checkpoints, read-your-writes waits, failure
// handling. Rows are derived data: their batches commit without waiting for the WAL flush (a crash
// loses rows and checkpoint together, and the runtime replays them from the event store).
import type { Kysely } from 'kysely'
import type { ConsumerBackoff, ConsumerLog } from '../../events/consumers/consumerGuard.js'
import { createConsumerRuntime } from '../../events/consumers/consumerRuntime.js'
import type { EventStore } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import { type ProjectionContext, type Projector, projectorConsumer } from './projector.js'

/** The projection runner's consumer name (all projectors share one subscription). */
export const PROJECTIONS_CONSUMER = 'projections'

export type ProjectionRunner = ReturnType<typeof createProjectionRunner>

/** What a process does with its projections, kept asynchronously (a ProjectionRunner) or inline (inlineProjections.ts). */
export type ProjectionGroup = Pick<ProjectionRunner, 'start' | 'stop' | 'catchUp' | 'progress' | 'health' | 'waitFor' | 'replayParked'>

export function createProjectionRunner(deps: {
  store: EventStore
  db: Kysely<ReadDatabase>
  projectors: readonly Projector[]
  protection: ProjectionContext['protection']
  log: ConsumerLog
  backoff?: Partial<ConsumerBackoff>
}) {
  return createConsumerRuntime({
    name: PROJECTIONS_CONSUMER,
    store: deps.store,
    db: deps.db,
    consumers: deps.projectors.map((projector) => projectorConsumer(projector, { protection: deps.protection })),
    log: deps.log,
    backoff: deps.backoff,
    synchronousCommit: false,
  })
}
