// The asynchronous review of a new external wallet (IN_REVIEW until it runs, on the scheduler), as
// a port with two adapters: the sandbox refuses the documented trigger addresses (the well-known
// burn addresses of SANDBOX_REJECTED_WALLET_ADDRESSES: CLOSED) and passes every other (ACTIVE);
// production passes every wallet (no screening provider is wired: a real one replaces this
// adapter, the timer and the account's activate/close commands stay).
import type { Decider } from '../decider.js'
import { ADDRESS_TYPES, isSandboxRejectedWalletAddress } from '../shared/chain/index.js'
import type { Environment } from '../shared/environment.js'
import { type AccountCommand, type AccountState, accountDecider } from './decider.js'
import type { AccountEvent } from './events.js'

export const EXTERNAL_WALLET_REVIEW_LIMITS = {
  /** How long after its creation a wallet's review runs (a timer on the scheduler). */
  reviewDelayMs: 5_000,
} as const

export type ExternalWalletReviewOutcome = 'ACTIVE' | 'CLOSED'

export function reviewExternalWallet(
  environment: Environment,
  wallet: { addressType: string; walletAddress: string },
): ExternalWalletReviewOutcome {
  const addressType = ADDRESS_TYPES.find((t) => t === wallet.addressType)
  if (environment === 'sandbox' && addressType && isSandboxRejectedWalletAddress(addressType, wallet.walletAddress)) return 'CLOSED'
  return 'ACTIVE'
}

export type ReviewExternalWallet = {
  type: 'ReviewExternalWallet'
  organizationId: string
  accountId: string
  environment: Environment
  now: string
}

/**
 * The review as a command on the account's stream: the outcome becomes the account's own activate
 * or close (REVIEW_REJECTED). A wallet no longer IN_REVIEW (reviewed already, or closed meanwhile)
 * is left as it is, so a late or repeated timer never fails nor reopens anything.
 */
export const externalWalletReviewDecider: Decider<AccountState, ReviewExternalWallet, AccountEvent> = {
  initialState: accountDecider.initialState,
  evolve: accountDecider.evolve,
  decide(command, state) {
    if (state.status !== 'IN_REVIEW' || state.account.details.kind !== 'EXTERNAL_WALLET') return []
    const scoped = { organizationId: command.organizationId, accountId: command.accountId, now: command.now }
    const decision: AccountCommand =
      reviewExternalWallet(command.environment, state.account.details) === 'ACTIVE'
        ? { ...scoped, type: 'ActivateAccount' }
        : { ...scoped, type: 'CloseAccount', reason: 'REVIEW_REJECTED' }
    return accountDecider.decide(decision, state)
  },
}
