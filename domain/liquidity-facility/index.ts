// The liquidity facility aggregate's descriptor: one stream per organization (the facility id is
// lqf_ + the organization id's random part), holding the credit line's terms, draws and repayments.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { liquidityFacilityDecider } from './decider.js'
import { liquidityFacilityEventSchemas } from './events.js'
import { liquidityFacilityPublicEvents } from './publicEvents.js'

export const liquidityFacilityAggregate = defineAggregate({
  name: 'liquidityFacility',
  streamCategory: 'liquidity_facility',
  idPrefix: ID_PREFIXES.liquidityFacility,
  eventSchemas: liquidityFacilityEventSchemas,
  decider: liquidityFacilityDecider,
  publicEvents: liquidityFacilityPublicEvents,
  // Nothing sensitive; the organization owns the records.
  dataSubject: 'organization',
})
