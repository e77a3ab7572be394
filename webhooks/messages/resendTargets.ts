// Which endpoints a resend goes to, from the endpoints read model (so a change the caller just
// made is seen): one named endpoint, or every enabled endpoint now subscribed to the message's
// type. A message meant for one endpoint (a test event) only ever goes back to that one.
import { type Kysely, sql } from 'kysely'
import { conflict, notFound } from '../../domain/errors.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import type { MessageRow } from './queries.js'

/** The named endpoint of the organization, enabled; 404 / 409 otherwise. */
export async function enabledEndpoint(db: Kysely<ReadDatabase>, organizationId: string, endpointId: string): Promise<string> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'disabled'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', endpointId)
    .executeTakeFirst()
  if (!row) throw notFound('Webhook endpoint', endpointId)
  if (row.disabled) throw conflict('webhook_endpoint_disabled', `Webhook endpoint ${endpointId} is disabled; enable it first`)
  return row.id
}

export async function resendTargets(db: Kysely<ReadDatabase>, message: MessageRow, endpointId: string | undefined): Promise<string[]> {
  if (endpointId !== undefined) return [await enabledEndpoint(db, message.organization_id, endpointId)]
  let query = db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('organization_id', '=', message.organization_id)
    .where('disabled', '=', false)
  query =
    message.target_endpoint_id !== null
      ? query.where('id', '=', message.target_endpoint_id)
      : query.where(sql<boolean>`(filter_types = '[]'::jsonb OR filter_types @> jsonb_build_array(${message.event_type}::text))`)
  const rows = await query.orderBy('id').limit(WEBHOOK_LIMITS.maxEndpointsPerFanOut).execute()
  return rows.map((r) => r.id)
}
