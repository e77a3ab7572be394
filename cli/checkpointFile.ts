// Reads the checkpoint an auditor holds (`audit verify --checkpoint FILE`): the JSON of one, as
// `audit checkpoint` prints it and GET /v1/audit/checkpoints/latest returns it, or the webhook
// message that carried it (its `data`). And the key it is checked with (`--public-key`).
import { readFileSync, statSync } from 'node:fs'
import { z } from 'zod'
import { type CheckpointRecord, checkpointRecordSchema } from '../events/integrity/checkpointRecord.js'
import { CliError } from './output.js'

const MAX_CHECKPOINT_FILE_BYTES = 64 * 1024

export function readCheckpointFile(file: string): CheckpointRecord {
  let value: unknown
  try {
    if (statSync(file).size > MAX_CHECKPOINT_FILE_BYTES) throw new Error(`larger than ${MAX_CHECKPOINT_FILE_BYTES} bytes`)
    value = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new CliError('checkpoint_unreadable', `cannot read the checkpoint ${file}: ${(error as Error).message}`)
  }
  const envelope = z.object({ type: z.literal('audit.checkpoint_sealed'), data: z.unknown() }).safeParse(value)
  const parsed = checkpointRecordSchema.safeParse(envelope.success ? envelope.data.data : value)
  if (!parsed.success) throw new CliError('checkpoint_invalid', `${file} is not an audit checkpoint: ${z.prettifyError(parsed.error)}`)
  return parsed.data
}

/** A raw Ed25519 public key, base64 (as checkpoints carry it) or hex. */
export function parsePublicKey(text: string): Buffer {
  const trimmed = text.trim()
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64')
  if (key.length !== 32) throw new CliError('usage', '--public-key must be the 32-byte Ed25519 public key, base64 or hex')
  return key
}
