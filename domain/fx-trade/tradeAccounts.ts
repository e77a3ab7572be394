// The accounts a trade names, checked against its quote (pure: the route loads them). The
// destination is the customer's own external wallet on the destination network, or external bank
// account on the destination rail, ACTIVE, holding the destination currency. The optional source
// is where the deposit comes from: the customer's external wallet on the source network (still IN
// review: the trade waits for its screening), or bank account in the source currency.
import type { OpenAccountState } from '../account/decider.js'
import { DomainError, invalid } from '../errors.js'
import type { FxPair, FxSide } from '../fx/pair.js'

/** What a payout goes to, as the trade records it (no owner's name: personal data stays on the account). */
export type PayoutDestination = { toAddress: string | null; bankName: string | null; bankCountryCode: string | null }

const owned = (account: OpenAccountState, customerId: string, field: string) => {
  if (account.account.customerId !== customerId)
    throw invalid('account_not_owned_by_customer', `Account ${account.account.accountId} does not belong to customer ${customerId}`, [
      { field, message: "must be an account of the quote's customer", value: account.account.accountId },
    ])
}

/** Why an account cannot stand for a side, or null when it can. */
function mismatch(account: OpenAccountState, side: FxSide): string | null {
  const d = account.account.details
  if (side.kind === 'CRYPTO') {
    if (d.kind !== 'EXTERNAL_WALLET') return `must be an external wallet on ${side.network}`
    if (!d.chains.includes(side.network)) return `the wallet is on ${d.chains.join(', ')}, not ${side.network}`
    if (!d.currencies.includes(side.currency)) return `the wallet holds ${d.currencies.join(', ')}, not ${side.currency}`
    return null
  }
  if (d.kind !== 'EXTERNAL_BANK') return `must be an external bank account in ${side.currency}`
  if (d.currency !== side.currency) return `the bank account is in ${d.currency}, not ${side.currency}`
  return null
}

function checkSide(account: OpenAccountState, side: FxSide, field: string): void {
  const problem = mismatch(account, side)
  if (problem !== null)
    throw invalid(
      'account_not_for_pair',
      `Account ${account.account.accountId} cannot ${field.startsWith('source') ? 'send' : 'receive'} ${side.currency} here`,
      [{ field, message: problem, value: account.account.accountId }],
    )
}

const inactive = (account: OpenAccountState, field: string) =>
  new DomainError('conflict', 'account_not_active', `Account ${account.account.accountId} is ${account.status}`, [
    { field, message: 'must be ACTIVE', value: account.account.accountId },
  ])

/** Checks both accounts; `walletInReview`: the source wallet still awaits its screening. */
export function checkTradeAccounts(
  pair: FxPair,
  customerId: string,
  destination: OpenAccountState,
  source: OpenAccountState | undefined,
): { walletInReview: boolean; destination: PayoutDestination } {
  owned(destination, customerId, 'destinationAccountId')
  checkSide(destination, pair.destination, 'destinationAccountId')
  if (pair.destination.kind === 'FIAT' && destination.account.details.kind === 'EXTERNAL_BANK') {
    const rails: readonly string[] = destination.account.paymentRails
    if (!rails.includes(pair.destination.rail))
      throw invalid('account_not_for_pair', `Account ${destination.account.accountId} is paid on ${rails.join(', ')}`, [
        { field: 'destinationAccountId', message: `must be paid on ${pair.destination.rail}`, value: destination.account.accountId },
      ])
  }
  if (destination.status !== 'ACTIVE') throw inactive(destination, 'destinationAccountId')
  const d = destination.account.details
  const payout: PayoutDestination =
    d.kind === 'EXTERNAL_WALLET'
      ? { toAddress: d.walletAddress, bankName: null, bankCountryCode: null }
      : d.kind === 'EXTERNAL_BANK'
        ? { toAddress: null, bankName: d.bankName, bankCountryCode: d.bankCountry }
        : { toAddress: null, bankName: null, bankCountryCode: null }
  if (!source) return { walletInReview: false, destination: payout }
  owned(source, customerId, 'sourceAccountId')
  checkSide(source, pair.source, 'sourceAccountId')
  if (source.status === 'CLOSED') throw inactive(source, 'sourceAccountId')
  return { walletInReview: source.status === 'IN_REVIEW', destination: payout }
}
