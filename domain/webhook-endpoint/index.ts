// The webhook endpoint aggregate's descriptor: one stream per endpoint. Its events also include
// WebhookTestRequested, which a test request stores on a stream of its own (so the endpoint's
// stream stays free of test traffic) and which becomes the public `webhook.test` event.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { webhookEndpointDecider } from './decider.js'
import { webhookEndpointEventSchemas } from './events.js'
import { webhookEndpointPublicEvents } from './publicEvents.js'
import { webhookTestEventSchemas } from './testEvent.js'

export const webhookEndpointAggregate = defineAggregate({
  name: 'webhookEndpoint',
  streamCategory: 'webhook_endpoint',
  idPrefix: ID_PREFIXES.webhookEndpoint,
  eventSchemas: { ...webhookEndpointEventSchemas, ...webhookTestEventSchemas },
  decider: webhookEndpointDecider,
  publicEvents: webhookEndpointPublicEvents,
  // Signing secrets belong to the organization, rotate rather than get erased, and an endpoint is
  // created often: its secret is sealed with the organization's key, bound to the endpoint's record.
  dataSubject: 'organization',
})
