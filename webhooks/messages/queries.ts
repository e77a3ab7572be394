// Reads of messages, deliveries and attempts, always scoped to one organization: another
// organization's message is indistinguishable from a missing one.
import { type Kysely, type Selectable, sql } from 'kysely'
import type { ReadDatabase, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookMessagesTable } from '../../projections/schema.js'
import { type CursorQuery, inListOrder, unknownCursor } from '../../http/pagination/cursorPage.js'
import { WEBHOOK_LIMITS } from '../limits.js'

export type MessageRow = Selectable<WebhookMessagesTable>
export type DeliveryRow = Selectable<WebhookDeliveriesTable>
export type AttemptRow = Selectable<WebhookAttemptsTable>
export type ListedMessage = MessageRow & { delivery?: Pick<DeliveryRow, 'status' | 'attempt_count' | 'next_attempt_at'> }

export type MessageFilters = {
  endpointId?: string
  eventTypes?: string[]
  tag?: string
  since?: Date
  until?: Date
}

async function cursorSeq(db: Kysely<ReadDatabase>, organizationId: string, query: CursorQuery): Promise<string> {
  const id = query.starting_after ?? query.ending_before ?? ''
  const row = await db
    .selectFrom('webhook_messages')
    .select('seq')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw unknownCursor(query)
  return row.seq
}

/** One page plus one row, newest first (or, with ending_before, the rows just newer, reordered). */
export async function listMessages(
  db: Kysely<ReadDatabase>,
  organizationId: string,
  query: CursorQuery,
  filters: MessageFilters,
): Promise<ListedMessage[]> {
  let q = db.selectFrom('webhook_messages as m').selectAll('m').where('m.organization_id', '=', organizationId)
  if (filters.eventTypes?.length) q = q.where('m.event_type', 'in', filters.eventTypes)
  if (filters.tag !== undefined) q = q.where(sql<boolean>`m.tags @> ARRAY[${filters.tag}]::text[]`)
  if (filters.since) q = q.where('m.created_at', '>=', filters.since)
  if (filters.until) q = q.where('m.created_at', '<', filters.until)
  // One query shape either way: without an endpoint filter the join matches nothing (no endpoint has id '').
  const withDelivery = q
    .leftJoin('webhook_deliveries as d', (join) =>
      join.onRef('d.message_id', '=', 'm.id').on('d.endpoint_id', '=', filters.endpointId ?? ''),
    )
    .select(['d.status as d_status', 'd.attempt_count as d_attempt_count', 'd.next_attempt_at as d_next_attempt_at'])
    .$if(filters.endpointId !== undefined, (qb) => qb.where('d.endpoint_id', 'is not', null))

  let rows
  if (query.starting_after !== undefined) {
    const seq = await cursorSeq(db, organizationId, query)
    rows = await withDelivery
      .where('m.seq', '<', seq)
      .orderBy('m.seq', 'desc')
      .limit(query.page_size + 1)
      .execute()
  } else if (query.ending_before !== undefined) {
    const seq = await cursorSeq(db, organizationId, query)
    rows = inListOrder(
      await withDelivery
        .where('m.seq', '>', seq)
        .orderBy('m.seq', 'asc')
        .limit(query.page_size + 1)
        .execute(),
      query,
    )
  } else {
    rows = await withDelivery
      .orderBy('m.seq', 'desc')
      .limit(query.page_size + 1)
      .execute()
  }
  return rows.map(({ d_status, d_attempt_count, d_next_attempt_at, ...message }) => ({
    ...message,
    ...(d_status !== null
      ? { delivery: { status: d_status, attempt_count: d_attempt_count ?? 0, next_attempt_at: d_next_attempt_at } }
      : {}),
  }))
}

export async function findMessage(db: Kysely<ReadDatabase>, organizationId: string, id: string): Promise<MessageRow | undefined> {
  return db.selectFrom('webhook_messages').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
}

export async function deliveriesOf(db: Kysely<ReadDatabase>, messageId: string): Promise<DeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('message_id', '=', messageId)
    .orderBy('endpoint_id')
    .limit(WEBHOOK_LIMITS.maxEndpointsPerFanOut)
    .execute()
}

/** The newest maxAttemptsShown attempts, oldest first. */
export async function attemptsOf(db: Kysely<ReadDatabase>, messageId: string): Promise<AttemptRow[]> {
  const newest = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('message_id', '=', messageId)
    .orderBy('seq', 'desc')
    .limit(WEBHOOK_LIMITS.maxAttemptsShown)
    .execute()
  return newest.reverse()
}
