// Public events of the webhook endpoint area: the test event becomes `webhook.test`.
import type { PublicEventMapper } from '../publicEvents.js'
import { WebhookTestRequested } from './testEvent.js'

export const webhookEndpointPublicEvents: PublicEventMapper = (event) => {
  if (event.type !== 'WebhookTestRequested') return undefined
  const data = WebhookTestRequested.parse(event.data)
  return {
    type: 'webhook.test',
    data: {
      endpointId: data.endpointId,
      eventType: data.eventType,
      message: 'Test event: your endpoint receives and verifies webhooks.',
    },
    tags: [data.endpointId],
  }
}
