// The scheduler's table (migration 0008) as Kysely sees it, and the scheduler's own Kysely on the
// read database's pool: it names only this table, so the scheduler never imports the read models.
import { type ColumnType, Kysely, PostgresDialect } from 'kysely'
import type pg from 'pg'

type Timestamp = ColumnType<Date, Date | string, Date | string>
type Defaulted<T> = ColumnType<T, T | undefined, T>

export type ScheduledCommandStatus = 'PENDING' | 'PARKED'

export interface ScheduledCommandsTable {
  /** Deterministic (derived from what caused the timer); also the command's commandId. */
  id: string
  organization_id: string
  /** The schedulable aggregate (commands/scheduler/schedulableCommands.ts) whose decider runs it. */
  aggregate: string
  stream: string
  /** The command as stored; parsed by the aggregate's schema when scheduled and when claimed. */
  command: ColumnType<unknown, string, string>
  due_at: Timestamp
  status: Defaulted<ScheduledCommandStatus>
  attempts: Defaulted<number>
  next_attempt_at: Timestamp
  last_error: ColumnType<string | null, string | null | undefined, string | null>
  created_at: Defaulted<Date>
  updated_at: Defaulted<Date>
}

/** The tables the scheduler reads and writes. */
export type SchedulerDatabase = { scheduled_commands: ScheduledCommandsTable }

/** A Kysely over the same pool as the read database (closing the read database closes the pool). */
export function openSchedulerDatabase(pool: pg.Pool): Kysely<SchedulerDatabase> {
  return new Kysely<SchedulerDatabase>({ dialect: new PostgresDialect({ pool }) })
}
