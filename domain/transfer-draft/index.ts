// The transfer draft aggregate's descriptor: one stream per draft (`transfer_draft-tdraft_...`); its
// approval record's id (tda_) lives in its state.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { transferDraftDecider } from './decider.js'
import { transferDraftEventSchemas } from './events.js'

export const transferDraftAggregate = defineAggregate({
  name: 'transferDraft',
  streamCategory: 'transfer_draft',
  idPrefix: ID_PREFIXES.transferDraft,
  eventSchemas: transferDraftEventSchemas,
  decider: transferDraftDecider,
  // Nothing personal (a hash and ids); the organization owns the records.
  dataSubject: 'organization',
})
