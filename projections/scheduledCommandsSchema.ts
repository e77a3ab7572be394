// The Kysely type of the scheduler's table (migration 0008; owned by commands/scheduler/).
import type { ColumnType } from 'kysely'

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
