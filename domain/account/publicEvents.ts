// Stored account events as public webhook events (spec: Events). `balance.credited` (the spec's)
// when a balance account is credited: a deposit, a sandbox fund-in or a credit-line draw (`type`
// DEPOSIT, FUND_IN or DRAW; `reference` the deposit id, fund-in reference or draw id); and
// `balance.debited` (ours) when money leaves it: a payout settled from a hold, or a credit reversed.
// Holds and releases only move funds between available and committed inside the account: they are
// in the balance history, not webhooks. The payload names the account, the signed movement as a
// money object, its kind and cause, and the ledger transaction; the funds events carry no customer
// id, so the payload has none (GET /v1/accounts/{id} names the customer).
import type { LedgerTransaction } from '../ledger/index.js'
import { toWire } from '../shared/money/index.js'
import { publicEventMappersOf } from '../publicEvents.js'
import { creditCauseOf } from './creditCause.js'
import type { AccountEvent } from './events.js'

/**
 * The amount the transaction moved (its positive posting) in its currency. The event schema does not
 * say a transaction has one (the ledger balances each it writes), so one without moved 0 in its first
 * posting's currency: a mapper never throws on a stored event (issue 24).
 */
function movedBy(tx: LedgerTransaction) {
  const posting = tx.postings.find((p) => BigInt(p.amountMinor) > 0n)
  if (posting) return { currency: posting.currency, amountMinor: BigInt(posting.amountMinor) }
  return { currency: tx.postings[0]?.currency ?? 'USD', amountMinor: 0n }
}

function movementData(accountId: string, tx: LedgerTransaction, sign: 1n | -1n, at: string) {
  const moved = movedBy(tx)
  return {
    accountId,
    amount: toWire({ currency: moved.currency, amountMinor: sign * moved.amountMinor }),
    transactionId: tx.id,
    description: tx.description,
    createdAt: at,
  }
}

export const accountPublicEvents = publicEventMappersOf<AccountEvent>({
  FundsCredited: ({ data: d }) => {
    const cause = creditCauseOf(d.cause, d.transaction.kind === 'DRAW')
    return {
      type: 'balance.credited',
      data: { ...movementData(d.accountId, d.transaction, 1n, d.at), type: cause.type, reference: cause.id },
      tags: [d.accountId, cause.id],
    }
  },
  HoldSettled: ({ data: d }) => ({
    type: 'balance.debited',
    data: { ...movementData(d.accountId, d.transaction, -1n, d.at), type: 'PAYOUT', holdId: d.holdId },
    tags: [d.accountId, d.holdId],
  }),
  CreditReversed: ({ data: d }) => {
    const reference = creditCauseOf(d.cause, false).id
    return {
      type: 'balance.debited',
      data: { ...movementData(d.accountId, d.transaction, -1n, d.at), type: 'REVERSAL', reference },
      tags: [d.accountId, reference],
    }
  },
})
