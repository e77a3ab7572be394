// Stores a run of messages and fans them out, inside the subscriber's batch transaction, with one
// INSERT for the messages and one per chunk of deliveries (a batch is hundreds of events; a
// statement per event would make the subscriber the pipeline's bottleneck). Idempotent on the
// message id: a message that exists already (replay, rebuild, restart) gets no new deliveries.
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'
import { type RetrySchedule, nextDelayMs } from '../dispatcher/retrySchedule.js'
import { type Subscriber, enabledEndpointsOf, subscribersFor } from './fanOut.js'

export type NewMessage = {
  id: string
  organizationId: string
  eventType: string
  body: string
  tags: string[]
  targetEndpointId: string | null
  createdAt: Date
}

/** Rows per INSERT, so a statement stays well under Postgres's 65 535 parameters. */
const ROWS_PER_INSERT = 1_000

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** Returns the number of deliveries created. */
export async function storeMessages(
  trx: Kysely<ReadDatabase>,
  messages: readonly NewMessage[],
  schedule: RetrySchedule,
  onCapped?: (organizationId: string, count: number) => void,
): Promise<number> {
  if (messages.length === 0) return 0
  const inserted = new Map<string, string>()
  for (const chunk of chunks(messages, ROWS_PER_INSERT)) {
    const rows = await trx
      .insertInto('webhook_messages')
      .values(
        chunk.map((m) => ({
          id: m.id,
          organization_id: m.organizationId,
          event_type: m.eventType,
          body: m.body,
          tags: m.tags,
          target_endpoint_id: m.targetEndpointId,
          created_at: m.createdAt,
        })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .returning(['id', 'seq'])
      .execute()
    for (const r of rows) inserted.set(r.id, r.seq)
  }

  const endpointsByOrg = new Map<string, Subscriber[]>()
  for (const organizationId of new Set(messages.filter((m) => inserted.has(m.id)).map((m) => m.organizationId))) {
    endpointsByOrg.set(organizationId, await enabledEndpointsOf(trx, organizationId, (count) => onCapped?.(organizationId, count)))
  }
  const firstDelayMs = nextDelayMs(schedule, 0) ?? 0
  const deliveries = messages.flatMap((m) => {
    const seq = inserted.get(m.id)
    if (seq === undefined) return []
    return subscribersFor(endpointsByOrg.get(m.organizationId) ?? [], m.eventType, m.targetEndpointId).map((endpointId) => ({
      message_id: m.id,
      endpoint_id: endpointId,
      organization_id: m.organizationId,
      message_seq: seq,
      message_created_at: m.createdAt,
      status: 'PENDING' as const,
      // Database time throughout, so dispatchers on other machines agree on what is due.
      next_attempt_at: sql<Date>`now() + ${firstDelayMs} * interval '1 millisecond'`,
      next_trigger: 'SCHEDULED' as const,
      updated_at: sql<Date>`now()`,
    }))
  })
  for (const chunk of chunks(deliveries, ROWS_PER_INSERT)) await trx.insertInto('webhook_deliveries').values(chunk).execute()
  return deliveries.length
}
