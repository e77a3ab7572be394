// Records what happened to claimed deliveries: the attempt rows and each delivery's next state.
// Outcomes that finish while a write is in flight share the next transaction (group commit: at a
// few hundred deliveries a second, one commit per attempt would be the dispatcher's bottleneck).
// Each update is fenced by the lease token and by the generation a resend or recover bumps: if
// either moved on while the attempt ran, the attempt is still recorded but the newer request
// decides what happens next.
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'
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

export type Outcome = { delivery: ClaimedDelivery; attempt: AttemptRecord | undefined; next: NextStep; reason?: string }

export const RECORDER_LIMITS = { maxOutcomesPerCommit: 500 } as const

const FOREIGN_KEY_VIOLATION = '23503'

const clip = (text: string | null) => (text === null ? null : text.slice(0, WEBHOOK_LIMITS.errorTextMaxLength))
const delayOf = (next: NextStep) => (next.status === 'PENDING' ? next.delayMs : null)
const nextAt = (next: NextStep) => (next.status === 'PENDING' ? sql<Date>`now() + ${next.delayMs} * interval '1 millisecond'` : null)

/** Writes a group of outcomes in one transaction. */
export async function recordOutcomes(db: Kysely<ReadDatabase>, outcomes: readonly Outcome[]): Promise<void> {
  if (outcomes.length === 0) return
  await db.transaction().execute(async (trx) => {
    const attempts = outcomes.filter((o) => o.attempt !== undefined)
    if (attempts.length > 0) {
      await trx
        .insertInto('webhook_attempts')
        .values(
          attempts.map(({ delivery: d, attempt, next }) => ({
            id: newAttemptId(),
            message_id: d.messageId,
            endpoint_id: d.endpointId,
            url: attempt!.url,
            response_status: attempt!.status,
            response_body: attempt!.body.slice(0, WEBHOOK_LIMITS.responseBodyMaxBytes),
            error: clip(attempt!.error),
            duration_ms: attempt!.durationMs,
            trigger: d.trigger,
            attempted_at: attempt!.attemptedAt,
            // now() is the transaction's start: the same instant as the delivery's next_attempt_at below.
            next_attempt_at: nextAt(next),
          })),
        )
        .execute()
    }
    // Raw SQL: an UPDATE joined to a VALUES list (one statement for the whole group) is beyond the builder.
    const values = sql.join(
      outcomes.map(
        ({ delivery: d, attempt, next, reason }) => sql`(
      ${d.messageId}::text, ${d.endpointId}::text, ${d.leaseToken}::text, ${d.generation}::int, ${next.status}::text,
      ${delayOf(next)}::bigint, ${attempt ? 1 : 0}::int, ${attempt?.attemptedAt ?? null}::timestamptz, ${attempt?.status ?? null}::int,
      ${clip(reason ?? attempt?.error ?? null)}::text)`,
      ),
    )
    const updated = await sql<{ message_id: string; endpoint_id: string }>`
      UPDATE webhook_deliveries AS d SET
        status = v.status,
        next_attempt_at = CASE WHEN v.delay_ms IS NULL THEN NULL ELSE now() + v.delay_ms * interval '1 millisecond' END,
        next_trigger = 'SCHEDULED',
        run_attempts = d.run_attempts + v.counted,
        attempt_count = d.attempt_count + v.counted,
        lease_token = NULL, lease_until = NULL, leased_at = NULL,
        last_attempt_at = coalesce(v.attempted_at, d.last_attempt_at),
        last_response_status = coalesce(v.response_status, d.last_response_status),
        last_error = v.last_error,
        updated_at = now()
      FROM (VALUES ${values})
        AS v(message_id, endpoint_id, lease_token, generation, status, delay_ms, counted, attempted_at, response_status, last_error)
      WHERE d.message_id = v.message_id AND d.endpoint_id = v.endpoint_id AND d.lease_token = v.lease_token AND d.generation = v.generation
      RETURNING d.message_id, d.endpoint_id`.execute(trx)
    const done = new Set(updated.rows.map((r) => `${r.message_id} ${r.endpoint_id}`))
    const superseded = outcomes.filter((o) => !done.has(`${o.delivery.messageId} ${o.delivery.endpointId}`))
    // A resend or recover came in meanwhile: keep its state, only count the attempt and let go of the lease.
    for (const { delivery: d, attempt } of superseded) {
      await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({ attempt_count: eb('attempt_count', '+', attempt ? 1 : 0), lease_token: null, lease_until: null, leased_at: null }))
        .where('message_id', '=', d.messageId)
        .where('endpoint_id', '=', d.endpointId)
        .where('lease_token', '=', d.leaseToken)
        .execute()
    }
  })
}

/** Queues outcomes and writes them in groups: one transaction in flight, the next one gathering. */
/** `onRecorded`: told of each outcome once it is committed (the delivery counters of /metrics). */
export function createOutcomeRecorder(db: Kysely<ReadDatabase>, onRecorded?: (outcome: Outcome) => void) {
  let waiting: { outcome: Outcome; resolve: () => void; reject: (error: unknown) => void }[] = []
  let flushing = false

  /** The message was purged meanwhile (retention): nothing is left to record. Otherwise the caller retries. */
  const settleAlone = (w: (typeof waiting)[number], error: unknown) =>
    (error as { code?: string } | null | undefined)?.code === FOREIGN_KEY_VIOLATION ? w.resolve() : w.reject(error)

  async function flush(): Promise<void> {
    flushing = true
    while (waiting.length > 0) {
      const group = waiting.slice(0, RECORDER_LIMITS.maxOutcomesPerCommit)
      waiting = waiting.slice(group.length)
      try {
        await recordOutcomes(
          db,
          group.map((w) => w.outcome),
        )
        for (const w of group) w.resolve()
      } catch (error) {
        // One bad outcome must not fail its neighbours: write each alone, so only it fails.
        if (group.length === 1) settleAlone(group[0]!, error)
        else for (const w of group) await recordOutcomes(db, [w.outcome]).then(w.resolve, (e: unknown) => settleAlone(w, e))
      }
    }
    flushing = false
  }

  return {
    async record(outcome: Outcome): Promise<void> {
      await new Promise<void>((resolve, reject) => {
        waiting.push({ outcome, resolve, reject })
        if (!flushing) void flush()
      })
      onRecorded?.(outcome)
    },
  }
}

export type OutcomeRecorder = ReturnType<typeof createOutcomeRecorder>
