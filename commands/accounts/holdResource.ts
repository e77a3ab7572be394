// A hold as the API shows it: funds of a balance account committed to an in-flight payout. Read
// from the event its command appended (the account's state keeps only the holds still open).
import { z } from 'zod'
import type { AccountEvent } from '../../domain/account/events.js'
import { moneyWire, toWire } from '../../domain/shared/money/index.js'

export const holdResourceSchema = z
  .object({
    id: z.string().describe('Hold id, prefix hld_'),
    accountId: z.string(),
    status: z.enum(['HELD', 'SETTLED', 'RELEASED']).describe('HELD until the payout settles (SETTLED) or is called off (RELEASED)'),
    amount: moneyWire,
    updatedAt: z.string(),
  })
  .describe('Funds committed to an in-flight payout')
export type HoldResource = z.infer<typeof holdResourceSchema>

const STATUS = { FundsHeld: 'HELD', HoldSettled: 'SETTLED', HoldReleased: 'RELEASED' } as const

export function holdResourceFrom(events: readonly AccountEvent[]): HoldResource {
  for (const event of events) {
    if (event.type !== 'FundsHeld' && event.type !== 'HoldSettled' && event.type !== 'HoldReleased') continue
    const moved = event.data.transaction.postings.find((p) => BigInt(p.amountMinor) > 0n)!
    return {
      id: event.data.holdId,
      accountId: event.data.accountId,
      status: STATUS[event.type],
      amount: toWire({ currency: moved.currency, amountMinor: BigInt(moved.amountMinor) }),
      updatedAt: event.data.at,
    }
  }
  throw new Error('a hold command appended no hold event')
}
