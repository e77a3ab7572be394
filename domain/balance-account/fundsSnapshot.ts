// A balance account's funds as a snapshot (domain/snapshot.ts): balances, open holds and the recent
// closed hold ids as JSON, amounts as integer strings. Funds hold no personal data (ids, currencies
// and amounts only), so the plain JSON needs no sealing.
import { z } from 'zod'
import type { SnapshotCodec } from '../snapshot.js'
import { FUNDS_LIMITS, type Funds } from './funds.js'
import { recentEntriesOf, recentList } from '../shared/recentEntries.js'

export const FUNDS_SNAPSHOT_LIMITS = {
  /** Ledger balances one account's funds touch (its own two per currency, and the system accounts). */
  maxBalances: 256,
  maxCurrencies: 32,
  maxIdLength: 200,
} as const

const minor = z.string().regex(/^-?(0|[1-9]\d{0,39})$/, 'an integer amount of minor units')
const id = z.string().min(1).max(FUNDS_SNAPSHOT_LIMITS.maxIdLength)

const fundsJson = z.strictObject({
  accountId: id,
  currencies: z.array(z.string().min(1).max(16)).max(FUNDS_SNAPSHOT_LIMITS.maxCurrencies),
  balances: z.array(z.tuple([z.string().min(1).max(FUNDS_SNAPSHOT_LIMITS.maxIdLength), minor])).max(FUNDS_SNAPSHOT_LIMITS.maxBalances),
  openHolds: z.array(z.tuple([id, z.string().min(1).max(16), minor])).max(FUNDS_LIMITS.maxOpenHolds),
  // Up to ten thousand ids: checked in one loop, not one zod schema per element (a cold load
  // decodes this on the command's path).
  closedHolds: z.custom<string[]>(
    (v) =>
      Array.isArray(v) &&
      v.length <= FUNDS_LIMITS.maxClosedHolds &&
      v.every((i) => typeof i === 'string' && i.length > 0 && i.length <= FUNDS_SNAPSHOT_LIMITS.maxIdLength),
    `at most ${FUNDS_LIMITS.maxClosedHolds} hold ids`,
  ),
})

export const fundsSnapshot = {
  version: 1,
  everyEvents: 100,
  encode: (f) => ({
    accountId: f.accountId,
    currencies: [...f.currencies],
    balances: [...f.balances].map(([key, amount]) => [key, amount.toString()]),
    openHolds: [...f.openHolds].map(([holdId, hold]) => [holdId, hold.currency, hold.amountMinor.toString()]),
    closedHolds: [...recentList(f.closedHolds)].map(([holdId]) => holdId),
  }),
  decode(json) {
    const f = fundsJson.parse(json)
    return {
      accountId: f.accountId,
      currencies: f.currencies,
      balances: new Map(f.balances.map(([key, amount]) => [key, BigInt(amount)])),
      openHolds: new Map(f.openHolds.map(([holdId, currency, amount]) => [holdId, { currency, amountMinor: BigInt(amount) }])),
      closedHolds: recentEntriesOf(
        f.closedHolds.map((holdId) => [holdId, true] as const),
        FUNDS_LIMITS.maxClosedHolds,
      ),
    }
  },
} satisfies SnapshotCodec<Funds>
