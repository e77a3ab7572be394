// Claims due deliveries for one dispatcher: rows are picked FOR UPDATE SKIP LOCKED and leased
// (lease_token, lease_until) in a short transaction, so no other dispatcher takes them while the
// attempt runs, and no transaction stays open during the HTTP call (an open transaction would hold
// back every $all reader of the event store). A lease that ran out means its dispatcher died
// mid-attempt: the delivery is taken over and that lost attempt is recorded as interrupted.
import { type Kysely, sql } from 'kysely'
import type { WebhookEndpointState } from '../../domain/webhook-endpoint/decider.js'
import type { ReadDatabase, WebhookAttemptTrigger } from '../../projections/schema.js'
import { secureRandomBytes } from '../../domain/secureRandom.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import { newAttemptId } from './attemptId.js'

/** Serialises claims across processes, so the per-endpoint concurrency count is exact. */
const CLAIM_LOCK_KEY = 7_171_301

export type ClaimedDelivery = {
  messageId: string
  endpointId: string
  organizationId: string
  body: string
  trigger: WebhookAttemptTrigger
  runAttempts: number
  generation: number
  leaseToken: string
  endpoint: WebhookEndpointState
}

type Candidate = {
  message_id: string
  endpoint_id: string
  lease_token: string | null
  leased_at: Date | null
  next_trigger: WebhookAttemptTrigger
  busy: number
}

export const newLeaseToken = (): string => secureRandomBytes(12).toString('base64url')

/** Picks up to `room` candidates, at most `perEndpoint` leases per endpoint counting live ones, in due order. */
function pick(candidates: Candidate[], perEndpoint: number, room: number): Candidate[] {
  const taken = new Map<string, number>()
  const picked: Candidate[] = []
  for (const c of candidates) {
    if (picked.length >= room) break
    const mine = taken.get(c.endpoint_id) ?? 0
    if (c.busy + mine >= perEndpoint) continue
    taken.set(c.endpoint_id, mine + 1)
    picked.push(c)
  }
  return picked
}

const keyList = (rows: readonly { message_id: string; endpoint_id: string }[]) =>
  sql.join(rows.map((c) => sql`(${c.message_id}, ${c.endpoint_id})`))

export async function claimDeliveries(
  db: Kysely<ReadDatabase>,
  options: { room: number; perEndpoint: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  if (options.room < 1) return []
  const leaseToken = newLeaseToken()
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`.execute(trx)
    // Live leases per endpoint (few rows: at most maxInFlight per dispatcher). Saturated endpoints
    // are left out of the scan, so one endpoint's backlog cannot hide the others' due deliveries.
    const busy = trx
      .selectFrom('webhook_deliveries')
      .select(['endpoint_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('lease_token', 'is not', null)
      .where('lease_until', '>=', sql<Date>`now()`)
      .groupBy('endpoint_id')
      .as('b')
    // Only endpoints the subscriber has seen: a resend may name one created a moment ago.
    const candidates = (
      await trx
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_delivery_endpoints as e', 'e.id', 'd.endpoint_id')
        .leftJoin(busy, 'b.endpoint_id', 'd.endpoint_id')
        .select([
          'd.message_id',
          'd.endpoint_id',
          'd.lease_token',
          'd.leased_at',
          'd.next_trigger',
          sql<string>`coalesce(b.n, 0)`.as('busy'),
        ])
        .where('d.status', '=', 'PENDING')
        .where('d.next_attempt_at', '<=', sql<Date>`now()`)
        .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', sql<Date>`now()`)]))
        .where(sql<boolean>`coalesce(b.n, 0) < ${options.perEndpoint}`)
        .orderBy('d.next_attempt_at')
        .limit(WEBHOOK_LIMITS.claimScanSize)
        .execute()
    ).map((c) => ({ ...c, busy: Number(c.busy) }))
    const picked = pick(candidates, options.perEndpoint, options.room)
    if (picked.length === 0) return []

    // Lock only what is taken; a row another transaction holds (a record, a resend) is skipped,
    // and the conditions are checked again under the lock.
    const rows = await trx
      .updateTable('webhook_deliveries as d')
      .from(['webhook_messages as m', 'webhook_delivery_endpoints as e'])
      .set({
        lease_token: leaseToken,
        lease_until: sql<Date>`now() + ${options.leaseMs} * interval '1 millisecond'`,
        leased_at: sql<Date>`now()`,
      })
      .whereRef('m.id', '=', 'd.message_id')
      .whereRef('e.id', '=', 'd.endpoint_id')
      .where(
        sql<boolean>`(d.message_id, d.endpoint_id) IN (SELECT message_id, endpoint_id FROM webhook_deliveries
        WHERE (message_id, endpoint_id) IN (${keyList(picked)}) AND status = 'PENDING' AND next_attempt_at <= now()
          AND (lease_until IS NULL OR lease_until < now())
        FOR UPDATE SKIP LOCKED)`,
      )
      .returning([
        'd.message_id',
        'd.endpoint_id',
        'd.organization_id',
        'd.next_trigger',
        'd.run_attempts',
        'd.generation',
        'm.body',
        'e.state',
      ])
      .execute()
    if (rows.length === 0) return []
    const stateOf = new Map(rows.map((r) => [r.endpoint_id, r.state]))

    const claimed = new Set(rows.map((r) => `${r.message_id} ${r.endpoint_id}`))
    const interrupted = picked.filter((c) => c.lease_token !== null && claimed.has(`${c.message_id} ${c.endpoint_id}`))
    if (interrupted.length > 0) {
      await trx
        .insertInto('webhook_attempts')
        .values(
          interrupted.map((c) => {
            const state = stateOf.get(c.endpoint_id)
            return {
              id: newAttemptId(),
              message_id: c.message_id,
              endpoint_id: c.endpoint_id,
              url: state && state.status !== 'none' ? state.url : '',
              response_status: 0,
              response_body: '',
              error: 'interrupted: the dispatcher stopped before recording the outcome (the receiver may have got it); sent again',
              duration_ms: null,
              trigger: c.next_trigger,
              attempted_at: c.leased_at ?? new Date(),
              next_attempt_at: sql<Date>`now()`,
            }
          }),
        )
        .execute()
      // It counts as an attempt of the run, so a delivery that keeps killing its dispatcher still ends.
      await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({ attempt_count: eb('attempt_count', '+', 1), run_attempts: eb('run_attempts', '+', 1) }))
        .where(sql<boolean>`(message_id, endpoint_id) IN (${keyList(interrupted)})`)
        .execute()
    }

    const lost = new Set(interrupted.map((c) => `${c.message_id} ${c.endpoint_id}`))
    return rows.map((r) => {
      const endpoint = stateOf.get(r.endpoint_id)
      if (!endpoint) throw new Error(`claimed a delivery for unknown endpoint ${r.endpoint_id}`)
      return {
        messageId: r.message_id,
        endpointId: r.endpoint_id,
        organizationId: r.organization_id,
        body: r.body,
        trigger: r.next_trigger,
        runAttempts: r.run_attempts + (lost.has(`${r.message_id} ${r.endpoint_id}`) ? 1 : 0),
        generation: r.generation,
        leaseToken,
        endpoint,
      }
    })
  })
}
