// Public events of the webhook endpoint area: the test event becomes `webhook.test`.
import { publicEventMappersOf } from '../publicEvents.js'
import { WebhookTestRequested, type WebhookTestRequestedEvent } from './testEvent.js'

export const webhookEndpointPublicEvents = publicEventMappersOf<WebhookTestRequestedEvent>({
  WebhookTestRequested: (event) => {
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
  },
})
