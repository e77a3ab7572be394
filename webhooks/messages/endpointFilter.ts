// The endpointId filter of GET /v1/webhooks/messages names an endpoint, so it is checked as every id a
// request names (issue 24, D6): one the organization has or had, else the same 404 for another
// organization's id and a made-up one. Two tables answer: the endpoints read model (written with the
// create's own events, so an endpoint is known the moment its create answers) and the subscriber's
// endpoint table, which keeps deleted endpoints (their messages stay listed) but trails the log.
import type { Kysely } from 'kysely'
import { DomainError } from '../../domain/errors.js'
import type { ReadDatabase } from '../../projections/schema.js'

export async function assertEndpointFilterKnown(db: Kysely<ReadDatabase>, organizationId: string, endpointId: string): Promise<void> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', endpointId)
    .unionAll(
      db.selectFrom('webhook_delivery_endpoints').select('id').where('organization_id', '=', organizationId).where('id', '=', endpointId),
    )
    .limit(1)
    .executeTakeFirst()
  if (!row)
    throw new DomainError('not_found', 'resource_not_found', `Webhook endpoint ${endpointId} not found`, [
      { field: 'query.endpointId', message: 'names no webhook endpoint of the organization', value: endpointId },
    ])
}
