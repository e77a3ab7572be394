// Shared steps of the webhook delivery tests: endpoints, test events, probe events for fan-out,
// and reading a message until its deliveries settle.
import { randomUUID } from 'node:crypto'
import { type PublicEventMappers, isPublicEventType } from '../../domain/publicEvents.js'
import type { TestApp } from '../harness/testApp.js'
import { eventually } from './deliveryReceiver.js'

/**
 * A stored event type no aggregate emits, mapped to whatever public type its data names: fan-out
 * tests need public events beyond the test event.
 */
export const PROBE_EVENT_TYPE = 'DeliveryProbeRecorded'

export const probeMapper: PublicEventMappers = {
  [PROBE_EVENT_TYPE]: (event) => {
    const publicType = String(event.data.publicType)
    if (!isPublicEventType(publicType)) throw new Error(`probe names unknown type ${publicType}`)
    return { type: publicType, data: { id: event.data.resourceId, note: event.data.note ?? null }, tags: [String(event.data.resourceId)] }
  },
}

export type Attempt = {
  id: string
  endpointId: string
  url: string
  responseStatusCode: number
  responseBody: string
  error: string | null
  durationMs: number | null
  trigger: string
  timestamp: string
  nextAttemptAt: string | null
}
export type Delivery = { endpointId: string; status: string; attemptCount: number; nextAttemptAt: string | null; lastError: string | null }
export type MessageDetail = {
  id: string
  type: string
  timestamp: string
  tags: string[]
  payload: Record<string, unknown>
  deliveries: Delivery[]
  attempts: Attempt[]
}

export async function createEndpoint(h: TestApp, body: Record<string, unknown>, apiKey?: string): Promise<{ id: string; secret: string }> {
  const res = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: body, ...(apiKey ? { apiKey } : {}) })
  if (res.statusCode !== 201) throw new Error(`create endpoint: ${res.statusCode} ${res.body}`)
  const id = res.json().id as string
  const secret = (await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}/secret`, ...(apiKey ? { apiKey } : {}) })).json()
    .secret as string
  return { id, secret }
}

export async function sendTestEvent(h: TestApp, endpointId: string, apiKey?: string, eventType?: string): Promise<string> {
  const res = await h.request({
    method: 'POST',
    url: `/v1/webhooks/endpoints/${endpointId}/test`,
    ...(eventType ? { payload: { eventType } } : {}),
    ...(apiKey ? { apiKey } : {}),
  })
  if (res.statusCode !== 202) throw new Error(`test event: ${res.statusCode} ${res.body}`)
  return res.json().messageId as string
}

/** Appends a probe event for an organization and waits until its message exists; returns the message id. */
export async function appendProbe(
  h: TestApp,
  organizationId: string,
  publicType: string,
  resourceId: string,
  note?: string,
): Promise<string> {
  const id = randomUUID()
  const result = await h.runtime.store.appendToStream(
    `delivery_probe-${id}`,
    [
      {
        id,
        type: PROBE_EVENT_TYPE,
        data: { publicType, resourceId, ...(note ? { note } : {}) },
        metadata: { organizationId, actor: 'test' },
      },
    ],
    { expectedRevision: 'no_stream' },
  )
  if (!(await h.runtime.webhooks.waitForMessages(result.position, 10_000))) throw new Error('probe message not stored in time')
  return `evt_${id}`
}

export async function getMessage(h: TestApp, messageId: string, apiKey?: string): Promise<MessageDetail> {
  const res = await h.request({ method: 'GET', url: `/v1/webhooks/messages/${messageId}`, ...(apiKey ? { apiKey } : {}) })
  if (res.statusCode !== 200) throw new Error(`get message: ${res.statusCode} ${res.body}`)
  return res.json() as MessageDetail
}

/** Reads the message until every delivery has settled (none PENDING); returns it. */
export function settled(h: TestApp, messageId: string, apiKey?: string, timeoutMs = 10_000): Promise<MessageDetail> {
  return eventually(
    async () => {
      const message = await getMessage(h, messageId, apiKey)
      return message.deliveries.length > 0 && message.deliveries.every((d) => d.status !== 'PENDING') ? message : undefined
    },
    timeoutMs,
    `deliveries of ${messageId} to settle`,
  )
}

export const FAST_DISPATCHER = { requestTimeoutMs: 1_000, leaseMs: 2_000, pollIntervalMs: 20, stopGraceMs: 200 } as const
