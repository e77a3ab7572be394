// Many webhook endpoints with a history each (created, then updated), appended straight to the event
// store, one append per endpoint, several in flight (group commit joins them): a large $all for the
// rebuild tests and the rebuild bench. Through the runtime's store the read models follow inline, as
// the API's own writes would; through a store without them only the events are written.
import { randomUUID } from 'node:crypto'
import { newId } from '../../domain/shared/ids.js'
import { generateSigningSecret } from '../../domain/webhook-endpoint/signingSecret.js'
import { validateNewEventData } from '../../events/catalog.js'
import { type EventStore, type NewEvent, STORE_LIMITS } from '../../events/store/port.js'

export const ENDPOINT_HISTORY_LIMITS = {
  maxEndpoints: 1_000_000,
  /** Appends in flight at once. */
  maxConcurrency: 256,
} as const

export type EndpointHistoryPlan = {
  organizationId: string
  endpoints: number
  /** Events on each endpoint's stream: one creation and the rest updates (a new description each). */
  eventsPerEndpoint: number
  concurrency: number
  /** Called after each append with the events appended so far (a seed of a million reports progress). */
  onAppended?: (events: number) => void
}

const CREATED_AT = '2026-11-24T08:00:00.000Z'

function historyOf(organizationId: string, endpointId: string, events: number): NewEvent[] {
  const metadata = { organizationId, actor: 'seed', requestId: `req_seed_${endpointId}` }
  const created = {
    endpointId,
    organizationId,
    url: `https://hooks.example.com/${endpointId}`,
    description: 'seeded endpoint',
    filterTypes: ['transfer.completed'],
    metadata: { seeded: 'yes' },
    secret: generateSigningSecret(),
    createdAt: CREATED_AT,
  }
  const history: NewEvent[] = [{ id: randomUUID(), type: 'WebhookEndpointCreated', data: created, metadata }]
  for (let n = 1; n < events; n++) {
    const updated = { endpointId, description: `update ${n}`, updatedAt: new Date(Date.parse(CREATED_AT) + n * 1000).toISOString() }
    history.push({ id: randomUUID(), type: 'WebhookEndpointUpdated', data: updated, metadata })
  }
  return history.map((e) => ({ ...e, data: validateNewEventData(e.type, e.data) }))
}

/** Appends the plan's histories; answers the endpoint ids in creation order. */
export async function appendEndpointHistory(store: EventStore, plan: EndpointHistoryPlan): Promise<string[]> {
  if (plan.endpoints < 1 || plan.endpoints > ENDPOINT_HISTORY_LIMITS.maxEndpoints) throw new RangeError('endpoints out of range')
  if (plan.eventsPerEndpoint < 1 || plan.eventsPerEndpoint > STORE_LIMITS.maxEventsPerAppend) throw new RangeError('events out of range')
  if (plan.concurrency < 1 || plan.concurrency > ENDPOINT_HISTORY_LIMITS.maxConcurrency) throw new RangeError('concurrency out of range')
  const ids = Array.from({ length: plan.endpoints }, () => newId('ep'))
  let next = 0
  let appended = 0
  const lane = async () => {
    while (next < ids.length) {
      const id = ids[next++]!
      await store.appendToStream(`webhook_endpoint-${id}`, historyOf(plan.organizationId, id, plan.eventsPerEndpoint), {
        expectedRevision: 'no_stream',
      })
      appended += plan.eventsPerEndpoint
      plan.onAppended?.(appended)
    }
  }
  await Promise.all(Array.from({ length: plan.concurrency }, lane))
  return ids
}
