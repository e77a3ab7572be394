// A checkpoint as it is stored and published: the signed tree head and the raw public key that signs
// it (base64), so a holder of a copy checks it with any Ed25519 library; the key id pins the key.
import { z } from 'zod'
import type { SignedCheckpoint } from './checkpointSignature.js'

export const checkpointRecordSchema = z.object({
  treeSize: z.number().int().min(0),
  rootHash: z.string().regex(/^[0-9a-f]{64}$/),
  sealedAt: z.iso.datetime(),
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
  signature: z.string().max(200),
  publicKey: z.string().max(100),
})

export type CheckpointRecord = SignedCheckpoint & { publicKey: string }

export type CheckpointRow = {
  tree_size: string
  root_hash: string
  sealed_at: Date
  key_id: string
  public_key: string
  signature: string
}

export const checkpointOfRow = (row: CheckpointRow): CheckpointRecord => ({
  treeSize: Number(row.tree_size),
  rootHash: row.root_hash,
  sealedAt: row.sealed_at.toISOString(),
  keyId: row.key_id,
  signature: row.signature,
  publicKey: row.public_key,
})
