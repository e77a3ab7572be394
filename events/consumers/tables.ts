// The consumer runtime's own tables (migrations 0005 and 0007): a checkpoint per consumer, a failure
// row while one is stuck on an event, and the operator's skips. The runtime reads and writes them
// with plain SQL, so it works on any Kysely database that holds them; these types let a database
// type (projections' ReadDatabase) include them.
import type { ColumnType } from 'kysely'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export interface ConsumerCheckpointsTable {
  name: string
  position: string
  updated_at: Timestamp
}

export interface ConsumerFailuresTable {
  consumer: string
  failing_since: ColumnType<Date, Date | string, Date | string>
  attempts: number
  last_error: string
  event_id: string
  event_type: string
  event_position: string
  next_attempt_at: ColumnType<Date, Date | string, Date | string>
  updated_at: Timestamp
}

export interface ConsumerSkipsTable {
  consumer: string
  event_id: string
  event_type: string
  event_position: string
  reason: string
  actor: string
  created_at: Timestamp
}

export interface ConsumerDatabase {
  consumer_checkpoints: ConsumerCheckpointsTable
  consumer_failures: ConsumerFailuresTable
  consumer_skips: ConsumerSkipsTable
}
