// The account aggregate: open (any kind), review (activate), close, metadata, and, for accounts
// that hold a balance, their funds (domain/balance-account/funds.ts: credit, hold, settle, release,
// reversal on the ledger). Statuses move by the table in accountKinds.ts.
import {
  type FundsCommand,
  type Funds,
  type TransitAccount,
  committedIn,
  availableIn,
  decideFunds,
  emptyFunds,
  evolveFunds,
} from '../balance-account/funds.js'
import type { Decider } from '../decider.js'
import { type ErrorDetail, assertInvariant, conflict, invalid, notFound } from '../errors.js'
import { FIXED_ROUTE_LIMITS } from '../fixed-route/limits.js'
import { depositKey } from '../fixed-route/deposits.js'
import { FIXED_ROUTE_KINDS, canMove } from './accountKinds.js'
import type { IncomingMoney } from './incomingMoney.js'
import { accountSnapshot } from './accountSnapshot.js'
import { ACCOUNT_LIMITS } from './limits.js'
import { type RecentEntries, noRecentEntries, recentGet, recentHas, recentList, withRecentEntry } from '../shared/recentEntries.js'
import type { AccountEvent } from './events.js'
import type { AccountState, CreditRecord, FixedRouteDeposit, OpenAccountState, OpenedAccount } from './state.js'

export type { AccountState, CreditRecord, FixedRouteDeposit, OpenAccountState, OpenedAccount } from './state.js'

/** `onBehalfOf`: the request acts for this customer only (X-On-Behalf-Of); other accounts do not exist for it. */
type Scoped = { organizationId: string; accountId: string; now: string; onBehalfOf?: string | undefined }

export type AccountCommand =
  | (Scoped & { type: 'OpenAccount'; account: Omit<OpenedAccount, 'accountId' | 'organizationId'>; status: 'IN_REVIEW' | 'ACTIVE' })
  | (Scoped & { type: 'ActivateAccount' })
  /** `incoming`: what is on its way to it (read models; a caller's close must give it, a review's need not). */
  | (Scoped & { type: 'CloseAccount'; reason: 'CLOSED_BY_CALLER' | 'REVIEW_REJECTED'; incoming?: IncomingMoney })
  | (Scoped & { type: 'UpdateAccountMetadata'; metadata: Record<string, unknown> })
  | (Scoped & { type: 'SetFixedRouteEnabled'; enabled: boolean })
  /**
   * A deposit at a fixed route: recorded once per reference (the same reference and amount again is a
   * no-op, whatever rail or remitter it names: the first recorded stands; another amount is 409
   * reference_reused, as a fund-in's is); `refusal` applies only to a new one.
   */
  | (Scoped & {
      type: 'RecordFixedRouteDeposit'
      deposit: Omit<FixedRouteDeposit, 'customerId'>
      refusal: { code: string; message: string; details: ErrorDetail[] } | null
    })
  /**
   * A credit taken back whole, once: the amount it credited, to the world (a returned deposit) or to
   * clearing (a reversed transfer's delivery, on its way back to where it came from).
   */
  | (Scoped & { type: 'ReturnCredit'; cause: string; to?: TransitAccount })
  | (Scoped & FundsCommand)

function opened(state: AccountState, command: Scoped): OpenAccountState {
  if (state.status === 'none' || state.account.organizationId !== command.organizationId) throw notFound('Account', command.accountId)
  if (command.onBehalfOf !== undefined && state.account.customerId !== command.onBehalfOf) throw notFound('Account', command.accountId)
  return state
}

/** A fixed route's source account (a virtual bank account or a deposit wallet). */
export const isFixedRoute = (state: OpenAccountState): boolean =>
  (FIXED_ROUTE_KINDS as readonly string[]).includes(state.account.details.kind)

function fundsOf(state: OpenAccountState): Funds {
  if (!state.funds)
    throw invalid('account_holds_no_balance', `Account ${state.account.accountId} does not hold a balance`, [
      { field: 'accountId', message: 'must be a balance account (holdsBalance true)', value: state.account.accountId },
    ])
  return state.funds
}

function assertActive(state: OpenAccountState): void {
  if (state.status === 'CLOSED') throw conflict('account_closed', `Account ${state.account.accountId} is closed`)
  if (state.status !== 'ACTIVE') throw conflict('account_not_active', `Account ${state.account.accountId} is ${state.status}, not ACTIVE`)
}

function decideClose(state: OpenAccountState, command: Extract<AccountCommand, { type: 'CloseAccount' }>): AccountEvent[] {
  if (state.status === 'CLOSED') return []
  const id = state.account.accountId
  const incoming = command.incoming
  if (incoming && incoming.transfersInFlight > 0)
    throw conflict(
      'account_has_incoming_transfers',
      `Account ${id} has ${incoming.transfersInFlight} transfer(s) on their way to it; close it once they finish (or cancel them)`,
    )
  if (incoming?.openInvoices !== undefined && incoming.openInvoices > 0)
    throw conflict(
      'account_has_open_invoices',
      `Account ${id} receives the payments of ${incoming.openInvoices} OPEN invoice(s); cancel them (or let them be paid) first`,
    )
  if (incoming?.payoutTreasury)
    throw conflict('account_is_payout_treasury', `Account ${id} is the credit line's payout treasury; set another one before closing it`)
  if (state.funds) {
    if (state.funds.openHolds.size > 0)
      throw conflict(
        'account_has_pending_holds',
        `Account ${id} has ${state.funds.openHolds.size} payouts in flight; close it once they finish`,
      )
    const left = state.account.currencyCodes.filter((c) => availableIn(state.funds!, c) !== 0n || committedIn(state.funds!, c) !== 0n)
    if (left.length > 0) throw conflict('account_has_funds', `Account ${id} still holds ${left.join(', ')}; pay it out before closing`)
  }
  return [
    {
      type: 'AccountClosed',
      data: { accountId: id, organizationId: state.account.organizationId, reason: command.reason, at: command.now },
    },
  ]
}

function decideCredit(state: OpenAccountState, command: Extract<FundsCommand, { type: 'CreditFunds' }>): AccountEvent[] | undefined {
  const cause = [command.cause, ...(command.sameAs ?? [])].find((c) => recentGet(state.credits, c) !== undefined)
  const seen = cause === undefined ? undefined : recentGet(state.credits, cause)
  if (!seen) return undefined
  // The same cause again: a replay (no second credit) when it is the same amount, else a misuse.
  if (seen.currency === command.currency && seen.amountMinor === command.amountMinor) return []
  throw conflict('reference_reused', `Reference ${cause} already credited ${seen.amountMinor} ${seen.currency} minor units`)
}

function decide(command: AccountCommand, state: AccountState): AccountEvent[] {
  if (command.type === 'OpenAccount') {
    if (state.status !== 'none') throw conflict('account_exists', `Account ${command.accountId} already exists`)
    const { account } = command
    return [
      {
        type: 'AccountOpened',
        data: { ...account, accountId: command.accountId, organizationId: command.organizationId, status: command.status, at: command.now },
      },
    ]
  }
  const current = opened(state, command)
  const base = { accountId: current.account.accountId, organizationId: current.account.organizationId }
  switch (command.type) {
    case 'ActivateAccount':
      if (current.status === 'ACTIVE') return []
      if (!canMove(current.status, 'ACTIVE')) throw conflict('account_closed', `Account ${command.accountId} is closed`)
      return [{ type: 'AccountActivated', data: { ...base, at: command.now } }]
    case 'CloseAccount':
      return decideClose(current, command)
    case 'UpdateAccountMetadata':
      if (current.status === 'CLOSED') throw conflict('account_closed', `Account ${command.accountId} is closed`)
      return [{ type: 'AccountMetadataUpdated', data: { ...base, metadata: command.metadata, at: command.now } }]
    case 'SetFixedRouteEnabled':
      if (!isFixedRoute(current)) throw notFound('Fixed route', command.accountId)
      if (current.routeEnabled === command.enabled) return []
      if (current.status === 'CLOSED') throw conflict('account_closed', `Fixed route ${command.accountId} is closed`)
      return [{ type: command.enabled ? 'FixedRouteEnabled' : 'FixedRouteDisabled', data: { ...base, at: command.now } }]
    case 'RecordFixedRouteDeposit': {
      if (!isFixedRoute(current)) throw notFound('Fixed route', command.accountId)
      const { deposit } = command
      if (recentHas(current.deposits, depositKey(deposit.reference, deposit.amount.amountMinor))) return []
      const reused = depositWithReference(current.deposits, deposit.reference)
      if (reused)
        throw conflict(
          'reference_reused',
          `Reference ${deposit.reference} was already used for a deposit of ${reused.amount.amountMinor} ${reused.amount.currency} minor ` +
            'units: a reference names one deposit',
        )
      if (current.status === 'CLOSED') throw conflict('account_closed', `Fixed route ${command.accountId} is closed`)
      if (!current.routeEnabled)
        throw conflict('fixed_route_disabled', `Fixed route ${command.accountId} is disabled: enable it to take deposits`)
      if (command.refusal) throw invalid(command.refusal.code, command.refusal.message, command.refusal.details)
      const customerId = current.account.customerId
      assertInvariant(customerId, `fixed route ${command.accountId} has no customer`)
      return [{ type: 'FixedRouteDepositReceived', data: { ...base, ...deposit, customerId, at: command.now } }]
    }
    case 'CreditFunds': {
      const funds = fundsOf(current)
      const replay = decideCredit(current, command)
      if (replay) return replay
      assertActive(current)
      return decideFunds(command, funds)
    }
    case 'ReturnCredit': {
      const credit = recentGet(current.credits, command.cause)
      if (!credit) throw notFound('Credit', command.cause)
      if (credit.returned) throw conflict('credit_already_returned', `Credit ${command.cause} was already returned`)
      assertActive(current)
      const { currency, amountMinor } = credit
      const reversal = { type: 'ReverseCredit' as const, cause: command.cause, currency, amountMinor, now: command.now, to: command.to }
      return decideFunds(reversal, fundsOf(current))
    }
    case 'PlaceHold':
    case 'ReverseCredit':
      assertActive(current)
      return decideFunds(command, fundsOf(current))
    case 'SettleHold':
    case 'ReleaseHold':
      // Allowed whatever the status: an account with open holds cannot be closed, so they finish.
      return decideFunds(command, fundsOf(current))
  }
}

const remember = (credits: RecentEntries<CreditRecord>, cause: string, record: CreditRecord) =>
  withRecentEntry(credits, cause, record, ACCOUNT_LIMITS.maxRememberedCredits)

function depositWithReference(deposits: RecentEntries<FixedRouteDeposit>, reference: string): FixedRouteDeposit | undefined {
  for (const [, deposit] of recentList(deposits)) if (deposit.reference === reference) return deposit
  return undefined
}

function evolve(state: AccountState, event: AccountEvent): AccountState {
  if (event.type === 'AccountOpened') {
    const { at, status, ...account } = event.data
    return {
      status,
      account,
      metadata: account.metadata,
      routeEnabled: true,
      deposits: noRecentEntries(),
      funds: account.holdsBalance ? emptyFunds(account.accountId, account.currencyCodes) : undefined,
      credits: noRecentEntries(),
      createdAt: at,
      updatedAt: at,
      closedAt: null,
    }
  }
  assertInvariant(state.status !== 'none', `${event.type} before AccountOpened`)
  switch (event.type) {
    case 'AccountActivated':
      return { ...state, status: 'ACTIVE', updatedAt: event.data.at }
    case 'AccountClosed':
      return { ...state, status: 'CLOSED', updatedAt: event.data.at, closedAt: event.data.at }
    case 'AccountMetadataUpdated':
      return { ...state, metadata: event.data.metadata, updatedAt: event.data.at }
    case 'FixedRouteDisabled':
    case 'FixedRouteEnabled':
      return { ...state, routeEnabled: event.type === 'FixedRouteEnabled', updatedAt: event.data.at }
    case 'FixedRouteDepositReceived': {
      const { accountId: _a, organizationId: _o, at: _at, ...deposit } = event.data
      const key = depositKey(deposit.reference, deposit.amount.amountMinor)
      return { ...state, deposits: withRecentEntry(state.deposits, key, deposit, FIXED_ROUTE_LIMITS.maxRememberedDeposits) }
    }
    default: {
      assertInvariant(state.funds, `${event.type} on an account without a balance`)
      const funds = evolveFunds(state.funds, event)
      if (event.type === 'CreditReversed') {
        const credit = recentGet(state.credits, event.data.cause)
        if (!credit) return { ...state, funds }
        return { ...state, funds, credits: remember(state.credits, event.data.cause, { ...credit, returned: true }) }
      }
      if (event.type !== 'FundsCredited') return { ...state, funds }
      const credit = event.data.transaction.postings.find((p) => BigInt(p.amountMinor) > 0n)!
      const record = { currency: credit.currency, amountMinor: BigInt(credit.amountMinor), returned: false }
      return { ...state, funds, credits: remember(state.credits, event.data.cause, record) }
    }
  }
}

export const accountDecider: Decider<AccountState, AccountCommand, AccountEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  // Balance accounts get millions of events: loads start from a snapshot (accountSnapshot.ts).
  snapshot: accountSnapshot,
}
