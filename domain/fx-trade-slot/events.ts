// Events of a customer's FX trade slots (one stream per customer): a slot (source asset and
// network) claimed by a trade, replacing a finished or orphaned holder, and released by a trade
// that could not be created after all (its quote was gone).
import { z } from 'zod'

const id = z.string().min(1).max(64)
const key = z.string().min(1).max(40)

export const FxTradeSlotClaimed = z.object({
  organizationId: id,
  customerId: id,
  slotKey: key,
  tradeId: id,
  /** The holder this claim replaced (its trade ended, or never appeared), or null for a free slot. */
  replaced: id.nullable(),
  claimedAt: z.iso.datetime(),
})

export const FxTradeSlotReleased = z.object({ organizationId: id, customerId: id, slotKey: key, tradeId: id, releasedAt: z.iso.datetime() })

export const fxTradeSlotEventSchemas = { FxTradeSlotClaimed, FxTradeSlotReleased } as const

export type FxTradeSlotEvent =
  | { type: 'FxTradeSlotClaimed'; data: z.infer<typeof FxTradeSlotClaimed> }
  | { type: 'FxTradeSlotReleased'; data: z.infer<typeof FxTradeSlotReleased> }
