// One worker pass over the timer table: claims due rows in small batches (FOR UPDATE SKIP LOCKED,
// so workers in this and other processes never hold the same row), runs each through the command
// runtime with commandId = the row's id, and in the same transaction deletes it, or records the
// failure and when to try again, or parks it for an operator after the last attempt.
// A crash between a command's append and the commit leaves the row: it fires again, and the
// command runtime sees its commandId on the stream and appends nothing. So: exactly once.
import type { Kysely } from 'kysely'
import { ZodError } from 'zod'
import type { Commands } from '../runtime/commandRuntime.js'
import { describeFailure } from '../../events/consumers/failureText.js'
import type { SchedulerDatabase } from './schema.js'
import { retryDelayMs } from './backoff.js'
import { SCHEDULER_LIMITS, type SchedulerLimits } from './limits.js'
import { type LoadedCommand, type SchedulableRegistry, schedulableAggregates } from './schedulableCommands.js'

export const SCHEDULER_ACTOR = 'system:scheduler'

export type SchedulerLog = { error: (obj: object, msg: string) => void }

export type SchedulerDeps = {
  db: Kysely<SchedulerDatabase>
  commands: Commands
  log: SchedulerLog
  limits?: Partial<SchedulerLimits>
  /** The time rows are due by and commands fire at (tests step it). */
  clock?: () => Date
  aggregates?: SchedulableRegistry
  /** Aborted when the process stops: the pass ends after the batch in hand. */
  signal?: AbortSignal
}

export type PassResult = { fired: number; retried: number; parked: number }

type Claimed = { id: string; organization_id: string; aggregate: string; stream: string; command: unknown; attempts: number }

/** A row whose command can never run (unknown aggregate, not a command of it): retrying cannot help. */
class UnrunnableCommandError extends Error {
  override readonly name = 'UnrunnableCommandError'
}

function load(registry: SchedulableRegistry, row: Claimed): LoadedCommand {
  const aggregate = Object.hasOwn(registry, row.aggregate) ? registry[row.aggregate] : undefined
  if (!aggregate) throw new UnrunnableCommandError(`no schedulable aggregate is named ${row.aggregate}`)
  try {
    return aggregate.load(row.command)
  } catch (error) {
    if (!(error instanceof ZodError)) throw error
    throw new UnrunnableCommandError(`the stored command is not one of ${row.aggregate}: ${describeFailure(error)}`)
  }
}

/** Runs what is due now, batch after batch, until a batch is not full (or the pass's bound). */
export async function runDueCommands(deps: SchedulerDeps): Promise<PassResult> {
  const limits: SchedulerLimits = { ...SCHEDULER_LIMITS, ...deps.limits }
  const total: PassResult = { fired: 0, retried: 0, parked: 0 }
  for (let batch = 0; batch < limits.maxBatchesPerPass && !deps.signal?.aborted; batch++) {
    const claimed = await runBatch(deps, limits, total)
    if (claimed < limits.batchSize) break
  }
  return total
}

async function runBatch(deps: SchedulerDeps, limits: SchedulerLimits, total: PassResult): Promise<number> {
  const now = deps.clock?.() ?? new Date()
  const registry = deps.aggregates ?? schedulableAggregates
  return deps.db.transaction().execute(async (trx) => {
    const rows: Claimed[] = await trx
      .selectFrom('scheduled_commands')
      .select(['id', 'organization_id', 'aggregate', 'stream', 'command', 'attempts'])
      .where('status', '=', 'PENDING')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(limits.batchSize)
      .forUpdate()
      .skipLocked()
      .execute()
    for (const row of rows) {
      try {
        const command = load(registry, row)
        await command({
          commands: deps.commands,
          stream: row.stream,
          now,
          context: { organizationId: row.organization_id, requestId: `scheduler:${row.id}`, actor: SCHEDULER_ACTOR, commandId: row.id },
        })
        await trx.deleteFrom('scheduled_commands').where('id', '=', row.id).execute()
        total.fired++
      } catch (error) {
        const attempts = row.attempts + 1
        const park = error instanceof UnrunnableCommandError || attempts >= limits.maxAttempts
        const lastError = describeFailure(error)
        await trx
          .updateTable('scheduled_commands')
          .set({
            attempts,
            last_error: lastError,
            updated_at: now,
            ...(park ? { status: 'PARKED' as const } : { next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts, limits)) }),
          })
          .where('id', '=', row.id)
          .execute()
        if (park) total.parked++
        else total.retried++
        // Ids and the failure's text only: the command may carry data that must not be logged.
        deps.log.error(
          { scheduledCommand: row.id, aggregate: row.aggregate, attempts, error: lastError },
          park ? 'scheduled command parked: an operator must look at it' : 'scheduled command failed; it will be tried again',
        )
      }
    }
    return rows.length
  })
}
