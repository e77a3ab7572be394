// Many webhook endpoints with a history each (created, then updated), appended straight to the event
// store in rounds (each round one append per endpoint, several in flight: group commit joins them), so
// an endpoint's events are spread over $all as an API's writes would leave them: a large $all for the
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
  /** Appends they are split into, one round of appends over all endpoints each (a divisor of eventsPerEndpoint). */
  appendsPerEndpoint: number
  concurrency: number
  /** Called after each append with the events appended so far (a seed of a million reports progress). */
  onAppended?: (events: number) => void
}

const CREATED_AT = '2026-11-24T08:00:00.000Z'

/** The endpoint's event number `n`: its creation first, then updates. */
function eventOf(organizationId: string, endpointId: string, n: number): NewEvent {
  const metadata = { organizationId, actor: 'seed', requestId: `req_seed_${endpointId}_${n}` }
  if (n === 0) {
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
    return { id: randomUUID(), type: 'WebhookEndpointCreated', data: validateNewEventData('WebhookEndpointCreated', created), metadata }
  }
  const updated = { endpointId, description: `update ${n}`, updatedAt: new Date(Date.parse(CREATED_AT) + n * 1000).toISOString() }
  return { id: randomUUID(), type: 'WebhookEndpointUpdated', data: validateNewEventData('WebhookEndpointUpdated', updated), metadata }
}

/** Appends the plan's histories; answers the endpoint ids in creation order. */
export async function appendEndpointHistory(store: EventStore, plan: EndpointHistoryPlan): Promise<string[]> {
  const { endpoints, eventsPerEndpoint, appendsPerEndpoint, concurrency } = plan
  if (endpoints < 1 || endpoints > ENDPOINT_HISTORY_LIMITS.maxEndpoints) throw new RangeError('endpoints out of range')
  if (concurrency < 1 || concurrency > ENDPOINT_HISTORY_LIMITS.maxConcurrency) throw new RangeError('concurrency out of range')
  const perAppend = eventsPerEndpoint / appendsPerEndpoint
  if (!Number.isInteger(perAppend) || perAppend < 1 || perAppend > STORE_LIMITS.maxEventsPerAppend)
    throw new RangeError('appendsPerEndpoint must divide eventsPerEndpoint into appends the store takes')
  const ids = Array.from({ length: endpoints }, () => newId('ep'))
  let appended = 0
  for (let round = 0; round < appendsPerEndpoint; round++) {
    let next = 0
    const lane = async () => {
      while (next < ids.length) {
        const id = ids[next++]!
        const history = Array.from({ length: perAppend }, (_, i) => eventOf(plan.organizationId, id, round * perAppend + i))
        await store.appendToStream(`webhook_endpoint-${id}`, history, {
          expectedRevision: round === 0 ? 'no_stream' : BigInt(round * perAppend - 1),
        })
        appended += perAppend
        plan.onAppended?.(appended)
      }
    }
    await Promise.all(Array.from({ length: concurrency }, lane))
  }
  return ids
}
