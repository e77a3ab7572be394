// Stores one message and fans it out, inside the subscriber's batch transaction. Idempotent on
// the message id: a message that exists already (replay, rebuild, restart) is left as it is and
// gets no new deliveries.
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'
import { type RetrySchedule, nextDelayMs } from '../dispatcher/retrySchedule.js'
import { subscribedEndpoints } from './fanOut.js'

export type NewMessage = {
  id: string
  organizationId: string
  eventType: string
  body: string
  tags: string[]
  targetEndpointId: string | null
  createdAt: Date
}

/** Returns the number of deliveries created (0 when the message existed already). */
export async function storeMessage(
  trx: Kysely<ReadDatabase>,
  message: NewMessage,
  schedule: RetrySchedule,
  onCapped?: (count: number) => void,
): Promise<number> {
  const inserted = await trx.insertInto('webhook_messages').values({
    id: message.id,
    organization_id: message.organizationId,
    event_type: message.eventType,
    body: message.body,
    tags: message.tags,
    target_endpoint_id: message.targetEndpointId,
    created_at: message.createdAt,
  }).onConflict((oc) => oc.column('id').doNothing()).returning('seq').executeTakeFirst()
  if (!inserted) return 0

  const endpoints = await subscribedEndpoints(trx, message, onCapped)
  if (endpoints.length === 0) return 0
  const firstDelayMs = nextDelayMs(schedule, 0) ?? 0
  await trx.insertInto('webhook_deliveries').values(endpoints.map((endpointId) => ({
    message_id: message.id,
    endpoint_id: endpointId,
    organization_id: message.organizationId,
    message_seq: inserted.seq,
    message_created_at: message.createdAt,
    status: 'PENDING' as const,
    // Database time throughout, so dispatchers on other machines agree on what is due.
    next_attempt_at: sql<Date>`now() + ${firstDelayMs} * interval '1 millisecond'`,
    next_trigger: 'SCHEDULED' as const,
    updated_at: sql<Date>`now()`,
  }))).execute()
  return endpoints.length
}
