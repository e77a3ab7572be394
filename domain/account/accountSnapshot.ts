// An account's state as a snapshot (domain/snapshot.ts), for the accounts that get long histories:
// balance accounts (every credit and hold is an event). Their state holds no personal data (USD
// and stablecoin balance accounts carry no bank numbers), so plain JSON is safe; any other account
// (an external bank account's details are sealed in its events) is never snapshotted, and its
// stream stays short (open, review, close, metadata).
import { z } from 'zod'
import { fundsSnapshot } from '../balance-account/fundsSnapshot.js'
import type { JsonValue, SnapshotCodec } from '../snapshot.js'
import { accountStatusSchema } from './accountKinds.js'
import type { AccountState, CreditRecord } from './state.js'
import { ACCOUNT_LIMITS } from './limits.js'
import { noRecentEntries, recentEntriesOf, recentList } from '../shared/recentEntries.js'
import { AccountOpened } from './events.js'

const minor = z.string().regex(/^(0|[1-9]\d{0,39})$/)

const accountJson = z.strictObject({
  status: accountStatusSchema,
  account: AccountOpened.omit({ at: true, status: true }),
  metadata: z.record(z.string(), z.unknown()),
  funds: z.unknown(),
  // Checked in one loop (up to ten thousand entries on a cold load's path).
  credits: z.custom<[string, string, string, boolean][]>(
    (v) =>
      Array.isArray(v) &&
      v.length <= ACCOUNT_LIMITS.maxRememberedCredits &&
      v.every(
        (c) =>
          Array.isArray(c) &&
          c.length === 4 &&
          typeof c[0] === 'string' &&
          typeof c[1] === 'string' &&
          typeof c[2] === 'string' &&
          minor.safeParse(c[2]).success &&
          typeof c[3] === 'boolean',
      ),
    `at most ${ACCOUNT_LIMITS.maxRememberedCredits} credits`,
  ),
  createdAt: z.string(),
  updatedAt: z.string(),
  closedAt: z.string().nullable(),
})

export const accountSnapshot: SnapshotCodec<AccountState> = {
  version: 1,
  everyEvents: 100,
  encode(state): JsonValue | undefined {
    if (state.status === 'none' || !state.funds || state.account.details.kind === 'EXTERNAL_BANK') return undefined
    return {
      status: state.status,
      account: JSON.parse(JSON.stringify(state.account)) as JsonValue,
      metadata: JSON.parse(JSON.stringify(state.metadata)) as JsonValue,
      funds: fundsSnapshot.encode(state.funds),
      credits: [...recentList(state.credits)].map(([cause, c]) => [cause, c.currency, c.amountMinor.toString(), c.returned]),
      createdAt: state.createdAt,
      updatedAt: state.updatedAt,
      closedAt: state.closedAt,
    }
  },
  decode(json) {
    const s = accountJson.parse(json)
    const credits = recentEntriesOf<CreditRecord>(
      s.credits.map(([cause, currency, amount, returned]) => [cause, { currency, amountMinor: BigInt(amount), returned }]),
      ACCOUNT_LIMITS.maxRememberedCredits,
    )
    return {
      status: s.status,
      account: s.account,
      metadata: s.metadata,
      routeEnabled: true,
      deposits: noRecentEntries(),
      funds: fundsSnapshot.decode(s.funds),
      credits,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
      closedAt: s.closedAt,
    }
  },
}
