// Runs every workflow on the consumer runtime (one $all subscription, their checkpoints, failure
// handling), and knows how far their commands have appended, so a caller that waits for its write's
// effects (read-your-writes) can also wait for what the workflows did about it.
import type { Kysely } from 'kysely'
import { type Consumer, consumerHandles } from '../../events/consumers/consumer.js'
import type { ConsumerBackoff, ConsumerLog } from '../../events/consumers/consumerGuard.js'
import { createConsumerRuntime } from '../../events/consumers/consumerRuntime.js'
import { type Position, START } from '../../events/store/port.js'
import type { Commands } from '../runtime/commandRuntime.js'
import type { Environment } from '../../domain/shared/environment.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import type { Workflow } from './workflow.js'
import { workflowConsumer } from './workflowConsumer.js'

/** The workflow runner's consumer name (its failures and skips are recorded under it). */
export const WORKFLOWS_CONSUMER = 'workflows'

export const WORKFLOW_LIMITS = {
  /**
   * Live, the workflows read $all at most this often: commands wait for them only when they append
   * a type a workflow handles (server/runtime.ts), so fewer, bigger reads beat one read per commit
   * (a read per commit cost the command path ~14% in `npm run bench`).
   */
  batchIntervalMs: 20,
} as const

export type WorkflowRunner = ReturnType<typeof createWorkflowRunner>

export function createWorkflowRunner<DB>(deps: {
  /** The command runtime the workflows' commands run on; its store is the one they read. */
  commands: Commands
  db: Kysely<DB>
  workflows: readonly Workflow[]
  /** The data keys a workflow step may shred (an erased customer's). */
  protection: DataProtection
  environment: Environment
  /** Consumers whose effect is bookkeeping in this database (timer rows), run in the same group. */
  consumers?: readonly Consumer<DB>[]
  log: ConsumerLog
  backoff?: Partial<ConsumerBackoff>
}) {
  let appendedThrough: Position = START
  const onAppended = (position: Position) => {
    if (deps.commands.store.comparePositions(position, appendedThrough) > 0) appendedThrough = position
  }
  const consumers = [
    ...deps.workflows.map((w) =>
      workflowConsumer<DB>(w, deps.commands, { protection: deps.protection, environment: deps.environment }, onAppended),
    ),
    ...(deps.consumers ?? []),
  ]
  const runtime = createConsumerRuntime({
    name: WORKFLOWS_CONSUMER,
    store: deps.commands.store,
    db: deps.db,
    consumers,
    minBatchIntervalMs: WORKFLOW_LIMITS.batchIntervalMs,
    log: deps.log,
    backoff: deps.backoff,
  })
  return {
    ...runtime,
    /** Whether any workflow (or timer consumer) of this runner reacts to events of `type`. */
    handles: (type: string): boolean => consumers.some((c) => consumerHandles(c, type)),
    /** The last position a workflow command of this process appended (START before any). */
    appendedThrough: (): Position => appendedThrough,
  }
}
