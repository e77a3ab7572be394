// Which endpoints get a delivery of a message: the organization's enabled endpoints whose filter
// is empty (every type, including types added later) or names the type; a targeted message (a
// test event) goes to its one endpoint only, whatever its filter.
import type { Kysely } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'
import { WEBHOOK_LIMITS } from '../limits.js'

export type Subscriber = { id: string; filterTypes: readonly string[] }

/** The organization's enabled endpoints as of the subscriber's position (at most maxEndpointsPerFanOut). */
export async function enabledEndpointsOf(
  db: Kysely<ReadDatabase>,
  organizationId: string,
  onCapped?: (count: number) => void,
): Promise<Subscriber[]> {
  const rows = await db
    .selectFrom('webhook_delivery_endpoints')
    .select(['id', 'filter_types'])
    .where('organization_id', '=', organizationId)
    .where('disabled', '=', false)
    .where('deleted', '=', false)
    .orderBy('id')
    .limit(WEBHOOK_LIMITS.maxEndpointsPerFanOut + 1)
    .execute()
  // Stalling every tenant's webhooks for one organization's excess would be worse than capping.
  if (rows.length > WEBHOOK_LIMITS.maxEndpointsPerFanOut) onCapped?.(rows.length)
  return rows.slice(0, WEBHOOK_LIMITS.maxEndpointsPerFanOut).map((r) => ({ id: r.id, filterTypes: r.filter_types }))
}

export function subscribersFor(endpoints: readonly Subscriber[], eventType: string, targetEndpointId: string | null): string[] {
  if (targetEndpointId !== null) return endpoints.filter((e) => e.id === targetEndpointId).map((e) => e.id)
  return endpoints.filter((e) => e.filterTypes.length === 0 || e.filterTypes.includes(eventType)).map((e) => e.id)
}
