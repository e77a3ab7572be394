// The outcomes of `ledger verify` (migration 0030; written by cli/ledger/, read by /metrics).
import type { ColumnType } from 'kysely'
import type { DefaultedTimestamp } from './columnTypes.js'

export interface LedgerVerificationsTable {
  id: ColumnType<string, never, never>
  finished_at: DefaultedTimestamp
  consistent: boolean
  /** A bigint column: pg returns it as text. */
  events: ColumnType<string, string, string>
  checked_through: string
  duration_ms: number
  discrepancy_kind: string | null
}

export interface LedgerVerificationDatabase {
  ledger_verifications: LedgerVerificationsTable
}
