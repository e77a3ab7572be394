// The money of one balance account: available and committed per currency, and its open holds,
// decided on the ledger (domain/ledger). A hold moves funds from available to committed for an
// in-flight payout; it then settles (out to clearing) or is released (back to available). Available
// never goes below zero: a hold or reversal larger than it is refused with insufficient_funds.
import { conflict, invalid, notFound } from '../errors.js'
import { assertInvariant } from '../errors.js'
import {
  type LedgerBalances,
  applyTransaction,
  availableOf,
  balanceOf,
  committedOf,
  movement,
  splitMovement,
  system,
} from '../ledger/index.js'
import { assertBalanceWithinCeiling } from '../shared/money/index.js'
import { invoiceCreditOf } from '../account/creditCause.js'
import type { FundsEvent } from './fundsEvents.js'
import { type RecentEntries, noRecentEntries, recentHas, withRecentEntry } from '../shared/recentEntries.js'

/** The id prefix of holds the API places. */
export const CALLER_HOLD_PREFIX = 'hld'

export const FUNDS_LIMITS = {
  /** Open holds one account may have at once (each is an in-flight payout). */
  maxOpenHolds: 10_000,
  /**
   * Closed (settled or released) hold ids remembered, so a second settle answers hold_closed and a
   * reused id hold_exists. Older ones are forgotten in chunks (domain/shared/recentEntries.ts: between this - 255 and
   * this are kept): the state, and its snapshot, stay bounded however long the history.
   */
  maxClosedHolds: 10_000,
} as const

export type Hold = { currency: string; amountMinor: bigint }

export type Funds = {
  accountId: string
  currencies: readonly string[]
  /** The account's two ledger accounts per currency (available:<id>, committed:<id>). */
  balances: LedgerBalances
  /**
   * Open holds by id; settled and released ones are dropped, their ids kept in `closedHolds` so a
   * second settle is refused: the most recent FUNDS_LIMITS.maxClosedHolds of them only (a settle of
   * one closed before that window is not_found).
   */
  openHolds: ReadonlyMap<string, Hold>
  closedHolds: RecentEntries<true>
}

export const emptyFunds = (accountId: string, currencies: readonly string[]): Funds => ({
  accountId,
  currencies,
  balances: new Map(),
  openHolds: new Map(),
  closedHolds: noRecentEntries(),
})

export const availableIn = (f: Funds, currency: string) => balanceOf(f.balances, availableOf(f.accountId), currency)
export const committedIn = (f: Funds, currency: string) => balanceOf(f.balances, committedOf(f.accountId), currency)

export type FundsCommand =
  | {
      type: 'CreditFunds'
      cause: string
      currency: string
      amountMinor: bigint
      now: string
      /**
       * Where the money comes from: outside (a deposit, a fund-in), the credit line (a draw), or
       * clearing (a transfer from another balance account delivered here, or paid back here), the
       * sandbox's mint (a token minted into a treasury wallet by a fixed route's sweep), or suspense
       * (held money an operator sends here).
       */
      source?: CreditSource
      /** Other causes that name the same credit (an invoice deposit's applied and unmatched forms): one already credited is a replay. */
      sameAs?: readonly string[]
    }
  | { type: 'PlaceHold'; holdId: string; currency: string; amountMinor: bigint; now: string }
  /**
   * `feeMinor`: the part of the hold that goes to the fees account (a transfer's developer fee); the
   * rest goes `to` clearing (on its way to another balance account of the service, in the same
   * currency) or the world (paid out of the service, or converted). Absent: clearing (version 1).
   */
  | { type: 'SettleHold'; holdId: string; now: string; feeMinor?: bigint; to?: TransitAccount; byCaller?: boolean }
  /**
   * `byCaller`: asked for through the API, which settles and releases only the holds it placed
   * (`hld_` ids); a transfer's hold (its id is the transfer's) moves with the transfer alone.
   */
  | { type: 'ReleaseHold'; holdId: string; now: string; byCaller?: boolean }
  /** A credit taken back: to the world (a returned deposit) or to clearing (a transfer reversed, on its way back). */
  | { type: 'ReverseCredit'; cause: string; currency: string; amountMinor: bigint; now: string; to?: TransitAccount }

export type CreditSource = 'world' | 'credit_line' | 'clearing' | 'mint' | 'suspense'
export type TransitAccount = 'clearing' | 'world'

/** A hold the API placed (POST /v1/accounts/{id}/holds), as opposed to a transfer's. */
export const isCallerHold = (holdId: string): boolean => holdId.startsWith(`${CALLER_HOLD_PREFIX}_`)

function creditDescription(source: CreditSource, cause: string): string {
  switch (source) {
    case 'credit_line':
      return `Credit line draw ${cause}`
    case 'clearing':
      return `Transfer ${cause}`
    case 'mint':
      return `Minted for ${cause}`
    case 'suspense':
      return `Released from suspense: ${cause}`
    case 'world': {
      const invoice = invoiceCreditOf(cause)
      if (invoice?.applied) return `Invoice ${invoice.invoiceId}: deposit ${invoice.depositReference}`
      if (invoice) return `Deposit ${invoice.depositReference} for invoice ${invoice.invoiceId}, not applied: the invoice could not take it`
      return `Deposit ${cause}`
    }
  }
}

function checkAmount(f: Funds, currency: string, amountMinor: bigint): void {
  if (!f.currencies.includes(currency))
    throw invalid('currency_not_supported', `Account ${f.accountId} holds ${f.currencies.join(', ')}, not ${currency}`, [
      { field: 'currency', message: `one of ${f.currencies.join(', ')}`, value: currency },
    ])
  if (amountMinor <= 0n) throw invalid('invalid_amount', 'The amount must be positive', [{ field: 'amount', message: 'must be > 0' }])
}

// 422, not 409: the request is well-formed and nothing raced it; the balance does not cover it.
function insufficient(f: Funds, currency: string, amountMinor: bigint) {
  const available = availableIn(f, currency)
  return invalid('insufficient_funds', `Account ${f.accountId} has ${available} ${currency} minor units available, ${amountMinor} needed`, [
    { field: 'amount', message: `at most ${available} ${currency} minor units are available`, value: amountMinor.toString() },
  ])
}

export function decideFunds(command: FundsCommand, f: Funds): FundsEvent[] {
  const id = f.accountId
  switch (command.type) {
    case 'CreditFunds': {
      checkAmount(f, command.currency, command.amountMinor)
      // The ceiling (domain/shared/money/bounds.ts) bounds every balance, so no run of credits outgrows what stores and sums hold.
      const after = availableIn(f, command.currency) + committedIn(f, command.currency) + command.amountMinor
      assertBalanceWithinCeiling(id, { currency: command.currency, amountMinor: after })
      const draw = command.source === 'credit_line'
      const transaction = movement({
        id: `credit:${command.cause}`,
        kind: draw ? 'DRAW' : 'CREDIT',
        currency: command.currency,
        amountMinor: command.amountMinor,
        from: system(command.source ?? 'world'),
        to: availableOf(id),
        description: creditDescription(command.source ?? 'world', command.cause),
      })
      return [{ type: 'FundsCredited', data: { accountId: id, cause: command.cause, transaction, at: command.now } }]
    }
    case 'PlaceHold': {
      checkAmount(f, command.currency, command.amountMinor)
      if (f.openHolds.has(command.holdId) || recentHas(f.closedHolds, command.holdId))
        throw conflict('hold_exists', `Hold ${command.holdId} was already placed on account ${id}`)
      if (f.openHolds.size >= FUNDS_LIMITS.maxOpenHolds)
        throw conflict('too_many_open_holds', `Account ${id} has too many payouts in flight`)
      if (availableIn(f, command.currency) < command.amountMinor) throw insufficient(f, command.currency, command.amountMinor)
      const transaction = movement({
        id: `hold:${command.holdId}`,
        kind: 'HOLD',
        currency: command.currency,
        amountMinor: command.amountMinor,
        from: availableOf(id),
        to: committedOf(id),
        description: `Funds committed to payout ${command.holdId}`,
      })
      return [{ type: 'FundsHeld', data: { accountId: id, holdId: command.holdId, transaction, at: command.now } }]
    }
    case 'SettleHold':
    case 'ReleaseHold': {
      // A transfer's hold does not exist for the API.
      if (command.byCaller && !isCallerHold(command.holdId)) throw notFound('Hold', command.holdId)
      const hold = f.openHolds.get(command.holdId)
      if (!hold) {
        if (recentHas(f.closedHolds, command.holdId))
          throw conflict('hold_closed', `Hold ${command.holdId} was already settled or released`)
        throw notFound('Hold', command.holdId)
      }
      const settle = command.type === 'SettleHold'
      const feeMinor = command.type === 'SettleHold' ? (command.feeMinor ?? 0n) : 0n
      if (feeMinor < 0n || feeMinor >= hold.amountMinor)
        throw invalid('invalid_fee', `A fee of ${feeMinor} cannot be kept from a hold of ${hold.amountMinor}`, [
          { field: 'feeMinor', message: 'below the hold' },
        ])
      if (feeMinor > 0n) {
        const transaction = splitMovement({
          id: `settle:${command.holdId}`,
          kind: 'SETTLE',
          currency: hold.currency,
          from: committedOf(id),
          legs: [
            {
              to: system(command.type === 'SettleHold' ? (command.to ?? 'clearing') : 'clearing'),
              amountMinor: hold.amountMinor - feeMinor,
            },
            { to: system('fees'), amountMinor: feeMinor },
          ],
          description: `Payout ${command.holdId} paid out, fee ${feeMinor} kept`,
        })
        return [{ type: 'HoldSettled', data: { accountId: id, holdId: command.holdId, transaction, at: command.now } }]
      }
      const transaction = movement({
        id: `${settle ? 'settle' : 'release'}:${command.holdId}`,
        kind: settle ? 'SETTLE' : 'RELEASE',
        currency: hold.currency,
        amountMinor: hold.amountMinor,
        from: committedOf(id),
        to: command.type === 'SettleHold' ? system(command.to ?? 'clearing') : availableOf(id),
        description: settle ? `Payout ${command.holdId} paid out` : `Payout ${command.holdId} released`,
      })
      const data = { accountId: id, holdId: command.holdId, transaction, at: command.now }
      return [settle ? { type: 'HoldSettled', data } : { type: 'HoldReleased', data }]
    }
    case 'ReverseCredit': {
      checkAmount(f, command.currency, command.amountMinor)
      if (availableIn(f, command.currency) < command.amountMinor) throw insufficient(f, command.currency, command.amountMinor)
      const transaction = movement({
        id: `reversal:${command.cause}`,
        kind: 'REVERSAL',
        currency: command.currency,
        amountMinor: command.amountMinor,
        from: availableOf(id),
        to: system(command.to ?? 'world'),
        description: command.to === 'clearing' ? `Credit ${command.cause} taken back` : `Deposit ${command.cause} reversed`,
      })
      return [{ type: 'CreditReversed', data: { accountId: id, cause: command.cause, transaction, at: command.now } }]
    }
  }
}

function withHolds(f: Funds, event: FundsEvent): Funds {
  switch (event.type) {
    case 'FundsHeld': {
      const posting = event.data.transaction.postings.find((p) => BigInt(p.amountMinor) > 0n)!
      const openHolds = new Map(f.openHolds)
      openHolds.set(event.data.holdId, { currency: posting.currency, amountMinor: BigInt(posting.amountMinor) })
      return { ...f, openHolds }
    }
    case 'HoldSettled':
    case 'HoldReleased': {
      const openHolds = new Map(f.openHolds)
      openHolds.delete(event.data.holdId)
      return { ...f, openHolds, closedHolds: withRecentEntry(f.closedHolds, event.data.holdId, true, FUNDS_LIMITS.maxClosedHolds) }
    }
    default:
      return f
  }
}

export function evolveFunds(f: Funds, event: FundsEvent): Funds {
  const next = withHolds({ ...f, balances: applyTransaction(f.balances, event.data.transaction) }, event)
  // The invariant every event keeps: nothing negative on the account's own ledger accounts (cheap:
  // one check per currency; that committed equals the open holds is a property the tests check).
  for (const currency of f.currencies) {
    assertInvariant(availableIn(next, currency) >= 0n, `available ${currency} of ${f.accountId} below zero`)
    assertInvariant(committedIn(next, currency) >= 0n, `committed ${currency} of ${f.accountId} below zero`)
  }
  return next
}
