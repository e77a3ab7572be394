// One active FX trade per (customer, source asset, source network) (spec: Limits), kept on one
// stream per customer (`fxts_` + the customer id's random part): each slot names the trade that
// holds it. A claim is decided against what the command side found of the holder when it looked:
// a holder that ended (or whose trade never appeared within FX_TRADE_LIMITS.orphanClaimMs: a crash
// between the claim and the trade) is replaced; an active one refuses the claim (409). Claims on one
// customer are decided in turn, so 20 concurrent trades for one slot leave exactly one holding it.
import type { Decider } from '../decider.js'
import { DomainError } from '../errors.js'
import { FX_TRADE_LIMITS } from '../fx-trade/decider.js'
import type { FxTradeSlotEvent } from './events.js'

export const FX_TRADE_SLOT_LIMITS = {
  /** A customer's slots: one per source asset and network (3 stablecoins on their chains, 2 fiat). */
  maxSlots: 64,
} as const

export type SlotHolder = { tradeId: string; claimedAt: string }
export type FxTradeSlotState = { slots: ReadonlyMap<string, SlotHolder> }

/** What the command side found of the current holder's trade before deciding. */
export type HolderFact = { tradeId: string; trade: 'ACTIVE' | 'ENDED' | 'MISSING' }

type Ids = { organizationId: string; customerId: string; slotKey: string; tradeId: string; now: string }

export type FxTradeSlotCommand = ({ type: 'ClaimFxTradeSlot'; holder: HolderFact | null } & Ids) | ({ type: 'ReleaseFxTradeSlot' } & Ids)

/** The slot of a pair's source: `<currency>:<network>` for crypto, `<currency>:BANK` for fiat (one bank network per currency). */
export const slotKeyOf = (source: { currency: string; network?: string | undefined }): string =>
  `${source.currency}:${source.network ?? 'BANK'}`

/** The stream id of a customer's slots: `fxts_` + the customer id's random part. */
export const fxTradeSlotsIdOf = (customerId: string): string => `fxts_${customerId.slice(customerId.indexOf('_') + 1)}`

const busy = (slotKey: string, holder: string) =>
  new DomainError(
    'conflict',
    'fx_trade_already_active',
    `Trade ${holder} is still active for ${slotKey}; one active trade per source asset`,
  )

function decideClaim(command: Extract<FxTradeSlotCommand, { type: 'ClaimFxTradeSlot' }>, state: FxTradeSlotState): FxTradeSlotEvent[] {
  const { organizationId, customerId, slotKey, tradeId, now } = command
  const current = state.slots.get(slotKey)
  const claim = (replaced: string | null): FxTradeSlotEvent[] => [
    { type: 'FxTradeSlotClaimed', data: { organizationId, customerId, slotKey, tradeId, replaced, claimedAt: now } },
  ]
  if (!current) {
    if (state.slots.size >= FX_TRADE_SLOT_LIMITS.maxSlots)
      throw new DomainError('conflict', 'fx_trade_slots_exhausted', `Customer ${customerId} holds ${state.slots.size} trade slots`)
    return claim(null)
  }
  if (current.tradeId === tradeId) return []
  // The command side looked at another holder than the one now recorded: that one was just claimed, so it is active.
  const fact = command.holder?.tradeId === current.tradeId ? command.holder : null
  if (fact?.trade === 'ENDED') return claim(current.tradeId)
  const orphaned = fact?.trade === 'MISSING' && Date.parse(now) - Date.parse(current.claimedAt) >= FX_TRADE_LIMITS.orphanClaimMs
  if (orphaned) return claim(current.tradeId)
  throw busy(slotKey, current.tradeId)
}

export const fxTradeSlotDecider: Decider<FxTradeSlotState, FxTradeSlotCommand, FxTradeSlotEvent> = {
  initialState: () => ({ slots: new Map() }),
  decide(command, state) {
    if (command.type === 'ClaimFxTradeSlot') return decideClaim(command, state)
    // Only the trade holding the slot releases it; any other release is a no-op.
    if (state.slots.get(command.slotKey)?.tradeId !== command.tradeId) return []
    const { organizationId, customerId, slotKey, tradeId, now } = command
    return [{ type: 'FxTradeSlotReleased', data: { organizationId, customerId, slotKey, tradeId, releasedAt: now } }]
  },
  evolve(state, event) {
    const slots = new Map(state.slots)
    if (event.type === 'FxTradeSlotClaimed') slots.set(event.data.slotKey, { tradeId: event.data.tradeId, claimedAt: event.data.claimedAt })
    else slots.delete(event.data.slotKey)
    return { slots }
  },
}
