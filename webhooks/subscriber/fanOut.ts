// Which endpoints get a delivery of a message: the organization's enabled endpoints whose filter
// is empty (every type, including types added later) or names the type; a targeted message (a
// test event) goes to its one endpoint only, whatever its filter.
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'
import { WEBHOOK_LIMITS } from '../limits.js'

export async function subscribedEndpoints(
  db: Kysely<ReadDatabase>,
  input: { organizationId: string; eventType: string; targetEndpointId: string | null },
  onCapped?: (count: number) => void,
): Promise<string[]> {
  let query = db.selectFrom('webhook_delivery_endpoints').select('id')
    .where('organization_id', '=', input.organizationId)
    .where('disabled', '=', false)
    .where('deleted', '=', false)
  query = input.targetEndpointId !== null
    ? query.where('id', '=', input.targetEndpointId)
    : query.where(sql<boolean>`(filter_types = '[]'::jsonb OR filter_types @> jsonb_build_array(${input.eventType}::text))`)
  const rows = await query.orderBy('id').limit(WEBHOOK_LIMITS.maxEndpointsPerFanOut + 1).execute()
  // Stalling every tenant's webhooks for one organization's excess would be worse than capping.
  if (rows.length > WEBHOOK_LIMITS.maxEndpointsPerFanOut) onCapped?.(rows.length)
  return rows.slice(0, WEBHOOK_LIMITS.maxEndpointsPerFanOut).map((r) => r.id)
}
