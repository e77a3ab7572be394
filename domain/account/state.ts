// The account aggregate's state: nothing until opened; then its status, what it is (its kind's
// details), its metadata, and for accounts that hold a balance their funds and recent credits.
import type { z } from 'zod'
import type { Funds } from '../balance-account/funds.js'
import type { RecentEntries } from '../shared/recentEntries.js'
import type { AccountStatus } from './accountKinds.js'
import type { AccountOpened, FixedRouteDepositReceived } from './events.js'

export type FixedRouteDeposit = Omit<z.infer<typeof FixedRouteDepositReceived>, 'accountId' | 'organizationId' | 'at'>

export type OpenedAccount = Omit<z.infer<typeof AccountOpened>, 'at' | 'status'>

export type CreditRecord = { currency: string; amountMinor: bigint; returned: boolean }

export type AccountState =
  | { status: 'none' }
  | {
      status: AccountStatus
      account: OpenedAccount
      metadata: Record<string, unknown>
      /** A fixed route's source account: whether it sweeps deposits (true for every other account). */
      routeEnabled: boolean
      /**
       * A fixed route's recent deposits by key (reference and amount), oldest first
       * (FIXED_ROUTE_LIMITS.maxRememberedDeposits, forgotten in chunks).
       */
      deposits: RecentEntries<FixedRouteDeposit>
      /** Present exactly when the account holds a balance. */
      funds: Funds | undefined
      /** Recent credits by cause, oldest first (ACCOUNT_LIMITS.maxRememberedCredits, forgotten in chunks). */
      credits: RecentEntries<CreditRecord>
      createdAt: string
      updatedAt: string
      closedAt: string | null
    }
export type OpenAccountState = Exclude<AccountState, { status: 'none' }>
