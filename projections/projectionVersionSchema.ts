// The kept versions of projections' tables (migration 0033; written and read by projections/runtime/keptVersions.ts).
import type { ColumnType } from 'kysely'
import type { Position } from '../events/store/port.js'
import type { DefaultedTimestamp } from './columnTypes.js'

export interface ProjectionVersionsTable {
  projection: string
  kept_schema: string
  kept_tables: ColumnType<string[], string[], string[]>
  kept_position: ColumnType<Position, Position, Position>
  kept_dead_letters: number
  kept_at: DefaultedTimestamp
  replaced_by: 'rebuild' | 'rollback'
}

export interface ProjectionVersionDatabase {
  projection_versions: ProjectionVersionsTable
}
