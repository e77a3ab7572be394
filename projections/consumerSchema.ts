// The event consumers' own tables: projection checkpoints, failures and operator skips
// (migrations 0001 and 0005; owned by projections/runtime/).
import type { DefaultedTimestamp, Timestamp } from './columnTypes.js'

export interface ProjectionCheckpointsTable {
  name: string
  position: string
  updated_at: Timestamp
}

export interface ConsumerFailuresTable {
  consumer: string
  failing_since: Timestamp
  attempts: number
  last_error: string
  event_id: string
  event_type: string
  event_position: string
  next_attempt_at: Timestamp
  updated_at: Timestamp
}

export interface ConsumerSkipsTable {
  consumer: string
  event_id: string
  event_type: string
  event_position: string
  reason: string
  actor: string
  created_at: DefaultedTimestamp
}

export interface ConsumerDatabase {
  projection_checkpoints: ProjectionCheckpointsTable
  consumer_failures: ConsumerFailuresTable
  consumer_skips: ConsumerSkipsTable
}
