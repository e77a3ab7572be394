// The FX trade slots' descriptor: one stream per customer (`fx_trade_slots-fxts_...`) holding the
// one-active-trade rule. No public events.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { fxTradeSlotDecider } from './decider.js'
import { fxTradeSlotEventSchemas } from './events.js'

export const fxTradeSlotsAggregate = defineAggregate({
  name: 'fxTradeSlots',
  streamCategory: 'fx_trade_slots',
  idPrefix: ID_PREFIXES.fxTradeSlots,
  eventSchemas: fxTradeSlotEventSchemas,
  decider: fxTradeSlotDecider,
  dataSubject: 'organization',
})
