// The Merkle tree's rows (migration 0031): the sealer appends a batch of leaves with the nodes they
// complete and moves the frontier, in the transaction that moves its checkpoint; proofs read the few
// nodes they need (nodesNeeded) in one query. Plain SQL on any executor: the sealer runs in the
// workflows' group, whose transaction is typed for the scheduler's tables.
import { type QueryExecutorProvider, sql } from 'kysely'
import { type CompletedNode, type Hash, type NodeAt, type TreeFrontier, nodesNeeded } from './merkleTree.js'

export type SealedFrontier = TreeFrontier & { throughPosition: string }

export type TreeLeafRow = { leafIndex: number; eventId: string; organizationId: string | null; position: string }

/** Rows per INSERT: unnest arrays, so the parameter count stays at three or four whatever the batch. */
const ROWS_PER_INSERT = 5_000

export async function readFrontier(db: QueryExecutorProvider, options: { forUpdate?: boolean } = {}): Promise<SealedFrontier> {
  const lock = options.forUpdate ? sql`FOR UPDATE` : sql``
  const { rows } = await sql<{ size: string; subtrees: Buffer[]; through_position: string }>`SELECT size, subtrees, through_position
    FROM audit_tree_frontier WHERE id = 1 ${lock}`.execute(db)
  const row = rows[0]
  if (!row) throw new Error('audit_tree_frontier has no row: migration 0031 did not run')
  return { size: Number(row.size), subtrees: row.subtrees, throughPosition: row.through_position }
}

export async function appendToTree(
  trx: QueryExecutorProvider,
  leaves: readonly TreeLeafRow[],
  nodes: readonly CompletedNode[],
  frontier: SealedFrontier,
): Promise<void> {
  for (let i = 0; i < leaves.length; i += ROWS_PER_INSERT) {
    const chunk = leaves.slice(i, i + ROWS_PER_INSERT)
    await sql`INSERT INTO audit_tree_leaves (leaf_index, event_id, organization_id, position)
      SELECT * FROM unnest(${chunk.map((l) => String(l.leafIndex))}::bigint[], ${chunk.map((l) => l.eventId)}::text[],
        ${chunk.map((l) => l.organizationId)}::text[], ${chunk.map((l) => l.position)}::text[])`.execute(trx)
  }
  for (let i = 0; i < nodes.length; i += ROWS_PER_INSERT) {
    const chunk = nodes.slice(i, i + ROWS_PER_INSERT)
    await sql`INSERT INTO audit_tree_nodes (level, node_index, hash)
      SELECT * FROM unnest(${chunk.map((n) => n.level)}::smallint[], ${chunk.map((n) => String(n.index))}::bigint[],
        ${chunk.map((n) => n.hash)}::bytea[])`.execute(trx)
  }
  await sql`UPDATE audit_tree_frontier SET size = ${frontier.size}, subtrees = ${frontier.subtrees}::bytea[],
    through_position = ${frontier.throughPosition} WHERE id = 1`.execute(trx)
}

/**
 * Runs a computation over the stored nodes (a root, a proof): finds the nodes it needs, reads them in
 * one query, runs it. The caller bounds the sizes by the frontier's: every node they need is stored.
 */
export async function withStoredNodes<T>(db: QueryExecutorProvider, compute: (node: NodeAt) => T): Promise<T> {
  const needed = nodesNeeded(compute)
  const found = new Map<string, Hash>()
  if (needed.length > 0) {
    const rows = await sql<{ level: number; node_index: string; hash: Buffer }>`SELECT n.level, n.node_index, n.hash
      FROM unnest(${needed.map((n) => n.level)}::smallint[], ${needed.map((n) => String(n.index))}::bigint[]) AS w(level, node_index)
      JOIN audit_tree_nodes n ON n.level = w.level AND n.node_index = w.node_index`.execute(db)
    for (const row of rows.rows) found.set(`${row.level}:${row.node_index}`, row.hash)
  }
  return compute((level, index) => {
    const hash = found.get(`${level}:${index}`)
    if (!hash) throw new Error(`Merkle tree node ${level}:${index} is not stored`)
    return hash
  })
}

export type LeafOfEvent = { leafIndex: number; organizationId: string | null }

export async function leafOfEventId(db: QueryExecutorProvider, eventId: string): Promise<LeafOfEvent | undefined> {
  const { rows } = await sql<{ leaf_index: string; organization_id: string | null }>`SELECT leaf_index, organization_id
    FROM audit_tree_leaves WHERE event_id = ${eventId}`.execute(db)
  const row = rows[0]
  return row ? { leafIndex: Number(row.leaf_index), organizationId: row.organization_id } : undefined
}
