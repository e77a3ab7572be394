// Signs a checkpoint of the event log's Merkle tree when it grew since the last one: the tree's size
// and root as the sealer left them (merkleSealer.ts), the time, an Ed25519 signature. Stored in one
// transaction that holds the tree's frontier, with whatever the caller adds to it (the webhook copies:
// server/audit/auditCheckpoints.ts), so two servers never sign two checkpoints of one size and a
// checkpoint never goes without its copies.
import { type Kysely, type QueryExecutorProvider, sql } from 'kysely'
import { type CheckpointRecord, type CheckpointRow, checkpointOfRow } from './checkpointRecord.js'
import type { CheckpointSigner } from './checkpointSignature.js'
import { frontierRoot } from './merkleTree.js'
import { readFrontier } from './treeStore.js'

export const AUDIT_CHECKPOINT_LIMITS = { checkIntervalMs: 1_000 } as const

export type CheckpointSealing<DB> = {
  signer: CheckpointSigner
  now?: () => Date
  /** Runs in the checkpoint's transaction, after it is stored. */
  withCheckpoint?: (trx: Kysely<DB>, checkpoint: CheckpointRecord) => Promise<unknown>
  /** Sign only when the last checkpoint is at least this old (the timer's rule, the same in every server). */
  dueAfterMs?: number
}

export async function latestCheckpoint(db: QueryExecutorProvider): Promise<CheckpointRecord | undefined> {
  const { rows } = await sql<CheckpointRow>`SELECT tree_size, root_hash, sealed_at, key_id, public_key, signature
    FROM audit_checkpoints ORDER BY tree_size DESC LIMIT 1`.execute(db)
  return rows[0] ? checkpointOfRow(rows[0]) : undefined
}

/** The new checkpoint, or undefined when the tree has not grown since the last one (or that is not due yet). */
export async function sealCheckpoint<DB>(db: Kysely<DB>, sealing: CheckpointSealing<DB>): Promise<CheckpointRecord | undefined> {
  return db.transaction().execute(async (trx) => {
    const frontier = await readFrontier(trx, { forUpdate: true })
    const last = await latestCheckpoint(trx)
    if (frontier.size === 0 || (last && last.treeSize >= frontier.size)) return undefined
    const now = sealing.now?.() ?? new Date()
    if (last && sealing.dueAfterMs !== undefined && now.getTime() - Date.parse(last.sealedAt) < sealing.dueAfterMs) return undefined
    const signed = sealing.signer.sign({
      treeSize: frontier.size,
      rootHash: frontierRoot(frontier).toString('hex'),
      sealedAt: now.toISOString(),
    })
    const checkpoint: CheckpointRecord = { ...signed, publicKey: sealing.signer.publicKeyRaw.toString('base64') }
    await sql`INSERT INTO audit_checkpoints (tree_size, root_hash, sealed_at, key_id, public_key, signature)
      VALUES (${checkpoint.treeSize}, ${checkpoint.rootHash}, ${checkpoint.sealedAt}, ${checkpoint.keyId}, ${checkpoint.publicKey},
        ${checkpoint.signature})`.execute(trx)
    await sealing.withCheckpoint?.(trx, checkpoint)
    return checkpoint
  })
}
