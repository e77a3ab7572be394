// Keeps webhook_delivery_endpoints in step with the endpoint events the subscriber reads, using
// the aggregate's own evolve. Fan-out then sees each endpoint exactly as it was when the event it
// fans out was recorded (enabled, filters), whatever the projections' progress. The signing secrets
// in a snapshot are sealed (projections/sealedColumns.ts); the dispatcher opens them to sign.
import type { Kysely } from 'kysely'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import { sealedEndpointSnapshot } from '../../projections/sealedColumns.js'
import { type WebhookEndpointState, webhookEndpointDecider } from '../../domain/webhook-endpoint/decider.js'
import type { WebhookEndpointEvent } from '../../domain/webhook-endpoint/events.js'
import { toJson } from '../../projections/columnTypes.js'
import type { ReadDatabase } from '../../projections/schema.js'

const ENDPOINT_EVENT_TYPES = new Set<string>([
  'WebhookEndpointCreated',
  'WebhookEndpointUpdated',
  'WebhookEndpointSecretRotated',
  'WebhookEndpointDeleted',
])

export const isEndpointEvent = (type: string): boolean => ENDPOINT_EVENT_TYPES.has(type)

/** Whose key seals a snapshot: its organization's (stored in clear beside the sealed secrets). */
const organizationOf = (state: WebhookEndpointState) => (state.status === 'none' ? undefined : state.organizationId)

/** The snapshot with its secrets opened. */
export async function loadEndpointSnapshot(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  endpointId: string,
): Promise<WebhookEndpointState | undefined> {
  const row = await db.selectFrom('webhook_delivery_endpoints').select('state').where('id', '=', endpointId).executeTakeFirst()
  return row && sealedEndpointSnapshot.open(protection, endpointId, row.state, organizationOf(row.state))
}

/** Applies one endpoint event inside the subscriber's batch transaction. */
export async function applyEndpointEvent(
  trx: Kysely<ReadDatabase>,
  event: WebhookEndpointEvent,
  protection: DataProtection,
): Promise<void> {
  const endpointId = event.data.endpointId
  const before = (await loadEndpointSnapshot(trx, protection, endpointId)) ?? webhookEndpointDecider.initialState()
  const state = webhookEndpointDecider.evolve(before, event)
  if (state.status === 'none') throw new Error(`endpoint ${endpointId} has no state after ${event.type}`)
  const row = {
    organization_id: state.organizationId,
    disabled: state.disabled,
    deleted: state.status === 'deleted',
    filter_types: toJson(state.filterTypes),
    state: toJson<WebhookEndpointState>(await sealedEndpointSnapshot.seal(protection, endpointId, state, state.organizationId)),
    updated_at: state.updatedAt,
  }
  await trx
    .insertInto('webhook_delivery_endpoints')
    .values({ id: endpointId, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute()
  if (state.status === 'deleted') {
    // Nothing will be sent to a deleted endpoint; in-flight attempts record their own outcome.
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'FAILED', next_attempt_at: null, last_error: 'endpoint deleted', updated_at: new Date() })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'PENDING')
      .where('lease_token', 'is', null)
      .execute()
  }
}
