// Records what happened to a claimed delivery, in one short transaction: the attempt row and the
// delivery's next state. Fenced by the lease token, and by the generation a resend or recover
// bumps: if either moved on while the attempt ran, the attempt is still recorded but the newer
// request decides what happens next.
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase, WebhookDeliveryStatus } from '../../projections/schema.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import { newAttemptId } from './attemptId.js'
import type { ClaimedDelivery } from './claimDeliveries.js'

export type AttemptRecord = {
  url: string
  attemptedAt: Date
  status: number
  body: string
  error: string | null
  durationMs: number | null
}

/** SUCCEEDED, FAILED for good, or PENDING again after `delayMs`. */
export type NextStep = { status: 'SUCCEEDED' | 'FAILED' } | { status: 'PENDING'; delayMs: number }

const clip = (text: string | null) => (text === null ? null : text.slice(0, WEBHOOK_LIMITS.errorTextMaxLength))
const isDelivery = (d: ClaimedDelivery) => sql<boolean>`message_id = ${d.messageId} AND endpoint_id = ${d.endpointId}`

export async function recordOutcome(db: Kysely<ReadDatabase>, d: ClaimedDelivery, attempt: AttemptRecord | undefined, next: NextStep, reason?: string): Promise<void> {
  const nextAt = next.status === 'PENDING' ? sql<Date>`now() + ${next.delayMs} * interval '1 millisecond'` : null
  await db.transaction().execute(async (trx) => {
    if (attempt) {
      await trx.insertInto('webhook_attempts').values({
        id: newAttemptId(),
        message_id: d.messageId,
        endpoint_id: d.endpointId,
        url: attempt.url,
        response_status: attempt.status,
        response_body: attempt.body.slice(0, WEBHOOK_LIMITS.responseBodyMaxBytes),
        error: clip(attempt.error),
        duration_ms: attempt.durationMs,
        trigger: d.trigger,
        attempted_at: attempt.attemptedAt,
        next_attempt_at: nextAt,
      }).execute()
    }
    const counted = attempt ? 1 : 0
    const updated = await trx.updateTable('webhook_deliveries')
      .set((eb) => ({
        status: next.status satisfies WebhookDeliveryStatus,
        next_attempt_at: nextAt,
        next_trigger: 'SCHEDULED' as const,
        run_attempts: eb('run_attempts', '+', counted),
        attempt_count: eb('attempt_count', '+', counted),
        lease_token: null,
        lease_until: null,
        leased_at: null,
        ...(attempt ? { last_attempt_at: attempt.attemptedAt, last_response_status: attempt.status } : {}),
        last_error: clip(reason ?? attempt?.error ?? null),
        updated_at: sql<Date>`now()`,
      }))
      .where(isDelivery(d)).where('lease_token', '=', d.leaseToken).where('generation', '=', d.generation)
      .executeTakeFirst()
    if (updated.numUpdatedRows > 0n) return
    // A resend or recover came in meanwhile: keep its state, only let go of the lease.
    await trx.updateTable('webhook_deliveries')
      .set((eb) => ({ attempt_count: eb('attempt_count', '+', counted), lease_token: null, lease_until: null, leased_at: null }))
      .where(isDelivery(d)).where('lease_token', '=', d.leaseToken)
      .execute()
  })
}

/** Lets go of a lease without an attempt (the dispatcher stopped before sending). */
export async function releaseLease(db: Kysely<ReadDatabase>, d: ClaimedDelivery): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ lease_token: null, lease_until: null, leased_at: null })
    .where(isDelivery(d)).where('lease_token', '=', d.leaseToken).execute()
}
