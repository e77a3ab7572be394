// The Organization aggregate's descriptor: one stream per organization, holding its API keys.
// No public events.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { organizationDecider } from './decider.js'
import { organizationEventSchemas } from './events.js'

export const organizationAggregate = defineAggregate({
  name: 'organization',
  streamCategory: 'organization',
  idPrefix: ID_PREFIXES.organization,
  eventSchemas: organizationEventSchemas,
  decider: organizationDecider,
})
