// What operators see of and do with parked timers: rows that failed every attempt (or could never
// run) stay in the table, out of the workers' way, until an operator sends them back.
import type { Kysely } from 'kysely'
import type { SchedulerDatabase } from './schema.js'

export const PARKED_LIMITS = { maxListed: 1_000 } as const

export type ParkedCommand = {
  id: string
  organizationId: string
  aggregate: string
  stream: string
  dueAt: Date
  attempts: number
  lastError: string | null
  parkedAt: Date
}

/** Parked rows, oldest first, at most `limit` (bounded by PARKED_LIMITS.maxListed). */
export async function listParkedCommands(db: Kysely<SchedulerDatabase>, limit: number = PARKED_LIMITS.maxListed): Promise<ParkedCommand[]> {
  const rows = await db
    .selectFrom('scheduled_commands')
    .select(['id', 'organization_id', 'aggregate', 'stream', 'due_at', 'attempts', 'last_error', 'updated_at'])
    .where('status', '=', 'PARKED')
    .orderBy('updated_at')
    .limit(Math.min(Math.max(limit, 1), PARKED_LIMITS.maxListed))
    .execute()
  return rows.map((r) => ({
    id: r.id,
    organizationId: r.organization_id,
    aggregate: r.aggregate,
    stream: r.stream,
    dueAt: r.due_at,
    attempts: r.attempts,
    lastError: r.last_error,
    parkedAt: r.updated_at,
  }))
}

/** Sends a parked row back to the workers with a fresh set of attempts; false when no such parked row. */
export async function retryParkedCommand(db: Kysely<SchedulerDatabase>, id: string, now: Date = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('scheduled_commands')
    .set({ status: 'PENDING', attempts: 0, next_attempt_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'PARKED')
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}
