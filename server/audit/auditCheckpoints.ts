// The deployment's audit checkpoints: signed with its key (events/integrity/auditSigningKey.ts) and
// sent to every subscriber in the same transaction (webhooks/messages/checkpointMessages.ts). What the
// timer (server/backgroundJobs.ts) and `audit checkpoint` both run.
import type { Kysely } from 'kysely'
import type { CheckpointRecord } from '../../events/integrity/checkpointRecord.js'
import { sealCheckpoint } from '../../events/integrity/checkpointSealer.js'
import type { CheckpointSigner } from '../../events/integrity/checkpointSignature.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { RetrySchedule } from '../../webhooks/dispatcher/retrySchedule.js'
import { storeCheckpointMessages } from '../../webhooks/messages/checkpointMessages.js'

export type AuditSealing = {
  signer: CheckpointSigner
  /** The webhook deliveries' retry schedule, for the copies. */
  schedule: RetrySchedule
  /** AUDIT_CHECKPOINT_INTERVAL_MS: the timer signs once the last checkpoint is this old and the tree grew. */
  intervalMs: number
}

export function sealAuditCheckpoint(
  db: Kysely<ReadDatabase>,
  sealing: AuditSealing,
  options: { due?: boolean; now?: () => Date } = {},
): Promise<CheckpointRecord | undefined> {
  return sealCheckpoint(db, {
    signer: sealing.signer,
    ...(options.now ? { now: options.now } : {}),
    ...(options.due ? { dueAfterMs: sealing.intervalMs } : {}),
    withCheckpoint: (trx, checkpoint) => storeCheckpointMessages(trx, checkpoint, sealing.schedule),
  })
}
