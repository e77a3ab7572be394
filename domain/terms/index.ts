// The terms agreement aggregate's descriptor: one stream per generated agreement. No public events.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { termsDecider } from './decider.js'
import { termsEventSchemas } from './events.js'

export const termsAgreementAggregate = defineAggregate({
  name: 'termsAgreement',
  streamCategory: 'terms_agreement',
  idPrefix: ID_PREFIXES.termsAgreement,
  eventSchemas: termsEventSchemas,
  decider: termsDecider,
})
