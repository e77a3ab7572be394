// The consumer runtime's own tables (migrations 0005, 0007 and 0022): a checkpoint per consumer, a
// failure row while one is stuck on an event, the operator's skips, the dead letters of parked
// streams and the audit of their replays. The runtime reads and writes them
// with plain SQL, so it works on any Kysely database that holds them; these types let a database
// type (projections' ReadDatabase) include them.
import type { ColumnType } from 'kysely'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export interface ConsumerCheckpointsTable {
  name: string
  position: string
  updated_at: Timestamp
  /** How many dead letters (consumer_parked) this consumer has; kept in the transactions that write them. */
  parked_letters: ColumnType<number, number | undefined, number>
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

export interface ConsumerParkedTable {
  consumer: string
  event_id: string
  consumer_group: string
  stream: string
  stream_revision: ColumnType<string, bigint | string, bigint | string>
  event_type: string
  event_position: string
  organization_id: string | null
  reason: 'failed' | 'behind'
  error: string | null
  attempts: number
  parked_at: Timestamp
}

export interface ConsumerParkedReplaysTable {
  id: ColumnType<string, never, never>
  consumer: string
  consumer_group: string
  stream: string
  actor: string
  outcome: 'replayed' | 'failed'
  replayed_event_ids: string[]
  skipped_event_ids: string[]
  failed_event_id: string | null
  error: string | null
  replayed_at: Timestamp
}

export interface ConsumerDatabase {
  consumer_checkpoints: ConsumerCheckpointsTable
  consumer_failures: ConsumerFailuresTable
  consumer_skips: ConsumerSkipsTable
  consumer_parked: ConsumerParkedTable
  consumer_parked_replays: ConsumerParkedReplaysTable
}
