// The FX trade aggregate's descriptor: one stream per trade (`fx_trade-tfr_...`). A trade is also a
// transfer (flow FX): the two share the `tfr_` prefix and the id.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { fxTradeDecider } from './decider.js'
import { fxTradeEventSchemas } from './events.js'
import { fxTradePublicEvents } from './publicEvents.js'

export const fxTradeAggregate = defineAggregate({
  name: 'fxTrade',
  streamCategory: 'fx_trade',
  idPrefix: ID_PREFIXES.transfer,
  eventSchemas: fxTradeEventSchemas,
  decider: fxTradeDecider,
  publicEvents: fxTradePublicEvents,
  // Nothing personal (amounts, account ids, deposit coordinates of the service's own); the organization owns the records.
  dataSubject: 'organization',
})
