// Puts a command on the timer table: at `dueAt` a worker runs it (runDueCommands.ts). The id is
// deterministic (derived from what caused the timer) and is the command's commandId: scheduling
// the same id again is a no-op, and so is a second firing. Pass the caller's transaction to
// schedule atomically with what caused it (a consumer's checkpoint).
import type { Kysely } from 'kysely'
import type { SchedulerDatabase } from './schema.js'
import { SCHEDULER_LIMITS } from './limits.js'
import { type SchedulableAggregateName, type SchedulableCommand, schedulableAggregates } from './schedulableCommands.js'

export type ScheduleRequest<A extends SchedulableAggregateName> = {
  id: string
  organizationId: string
  aggregate: A
  /** The stream the command is decided on. */
  stream: string
  command: SchedulableCommand<A>
  dueAt: Date
}

/** Resolves true when the row was added, false when a row with this id already existed. */
export async function scheduleCommand<A extends SchedulableAggregateName>(
  db: Kysely<SchedulerDatabase>,
  request: ScheduleRequest<A>,
): Promise<boolean> {
  if (request.id.length === 0 || request.id.length > SCHEDULER_LIMITS.maxIdLength) {
    throw new RangeError(`A scheduled command id has 1 to ${SCHEDULER_LIMITS.maxIdLength} characters`)
  }
  if (Number.isNaN(request.dueAt.getTime())) throw new RangeError('A scheduled command needs a valid due time')
  const json = JSON.stringify(schedulableAggregates[request.aggregate].schema.parse(request.command))
  if (Buffer.byteLength(json) > SCHEDULER_LIMITS.maxCommandBytes) {
    throw new RangeError(`A scheduled command is at most ${SCHEDULER_LIMITS.maxCommandBytes} bytes`)
  }
  const result = await db
    .insertInto('scheduled_commands')
    .values({
      id: request.id,
      organization_id: request.organizationId,
      aggregate: request.aggregate,
      stream: request.stream,
      command: json,
      due_at: request.dueAt,
      next_attempt_at: request.dueAt,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
}
