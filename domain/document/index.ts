// The Document aggregate's descriptor: one stream per uploaded document (its metadata; the bytes
// are kept through domain/document/contentStore.ts). No public events.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { documentDecider } from './decider.js'
import { documentEventSchemas } from './events.js'

export const documentAggregate = defineAggregate({
  name: 'document',
  streamCategory: 'document',
  idPrefix: ID_PREFIXES.document,
  eventSchemas: documentEventSchemas,
  decider: documentDecider,
})
