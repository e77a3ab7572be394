// The console sessions' table (migration 0034; owned by server/console/).
import type { Environment } from '../domain/shared/environment.js'
import type { Timestamp } from './columnTypes.js'

export interface ConsoleSessionsTable {
  /** SHA-256 (hex) of the session token; the token itself lives only in the browser's cookie. */
  token_hash: string
  key_id: string
  organization_id: string
  environment: Environment
  created_at: Timestamp
  /** The absolute end: no activity extends it. */
  expires_at: Timestamp
  /** The idle expiry counts from here (moved at most once a minute: server/console/sessionLimits.ts). */
  last_seen_at: Timestamp
}

export interface ConsoleSessionDatabase {
  console_sessions: ConsoleSessionsTable
}
