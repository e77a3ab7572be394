// The Merkle tree's tables (migration 0031; written by events/integrity/merkleSealer.ts and the
// checkpoint sealer, read by the audit routes and /metrics).
import type { ColumnType } from 'kysely'

/** A bigint column: pg returns it as text; written as a number or text. */
type BigintColumn = ColumnType<string, string | number, string | number>

export interface AuditTreeLeavesTable {
  leaf_index: BigintColumn
  event_id: string
  organization_id: string | null
  position: string
}

export interface AuditTreeNodesTable {
  level: number
  node_index: BigintColumn
  hash: Buffer
}

export interface AuditTreeFrontierTable {
  id: number
  size: BigintColumn
  subtrees: Buffer[]
  /** The last event sealed ('' before any): an event at or before it is in the tree already. */
  through_position: string
}

export interface AuditCheckpointsTable {
  tree_size: BigintColumn
  root_hash: string
  sealed_at: ColumnType<Date, Date | string, never>
  key_id: string
  public_key: string
  signature: string
}

export interface AuditTreeDatabase {
  audit_tree_leaves: AuditTreeLeavesTable
  audit_tree_nodes: AuditTreeNodesTable
  audit_tree_frontier: AuditTreeFrontierTable
  audit_checkpoints: AuditCheckpointsTable
}
