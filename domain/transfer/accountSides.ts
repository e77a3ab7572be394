// A transfer's sides from the accounts a request names, decided on their state (pure: the command
// handler loads them). A source account must be a balance account of the sender that can fund
// transfers; a destination is a balance account (delivered on BALANCE), an external bank account
// (paid out on one of its rails) or an external wallet (paid out on one of its chains); every
// account must be ACTIVE. Each refusal names its field.
import type { OpenAccountState } from '../account/decider.js'
import { DomainError, invalid } from '../errors.js'
import { CHAINS, type Chain } from '../shared/chain/index.js'
import { PAYMENT_RAILS, type PaymentRail } from '../shared/paymentRails.js'
import type { RouteSide } from './route.js'

const isChain = (value: string): value is Chain => (CHAINS as readonly string[]).includes(value)
const isRail = (value: string): value is PaymentRail => (PAYMENT_RAILS as readonly string[]).includes(value)

function active(account: OpenAccountState, field: string): void {
  if (account.status !== 'ACTIVE')
    throw new DomainError('conflict', 'account_not_active', `Account ${account.account.accountId} is ${account.status}, not ACTIVE`, [
      { field, message: 'must be an ACTIVE account', value: account.account.accountId },
    ])
}

function currencyOf(account: OpenAccountState, asked: string | undefined, field: string): string {
  const codes = account.account.currencyCodes
  if (asked === undefined) {
    if (codes.length === 1) return codes[0]!
    throw invalid('currency_required', `Account ${account.account.accountId} holds ${codes.join(', ')}: name the currency`, [
      { field, message: `one of ${codes.join(', ')}` },
    ])
  }
  if (!codes.includes(asked))
    throw invalid('currency_not_supported', `Account ${account.account.accountId} holds ${codes.join(', ')}, not ${asked}`, [
      { field, message: `one of ${codes.join(', ')}`, value: asked },
    ])
  return asked
}

function balanceSide(account: OpenAccountState, currency: string): RouteSide {
  const details = account.account.details
  const crypto = details.kind === 'STABLECOIN_BALANCE'
  return {
    kind: 'BALANCE',
    accountId: account.account.accountId,
    currency,
    assetClass: crypto ? 'CRYPTO' : 'FIAT',
    chain: crypto ? details.chain : null,
  }
}

/** The source balance account: the sender's, eligible to fund transfers, ACTIVE. */
export function sourceBalanceSide(
  account: OpenAccountState,
  senderId: string,
  asked: { currency?: string | undefined; paymentRail?: string | undefined },
): RouteSide {
  const id = account.account.accountId
  if (!account.account.holdsBalance || !account.account.balanceSourceEligible)
    throw invalid('account_not_balance_source', `Account ${id} cannot fund transfers from its balance`, [
      { field: 'source.accountId', message: 'must be a customer balance account (balanceSourceEligible true)', value: id },
    ])
  if (account.account.customerId !== senderId)
    throw invalid('account_not_owned_by_sender', `Account ${id} does not belong to customer ${senderId}`, [
      { field: 'source.accountId', message: 'must belong to sourceCustomerId', value: id },
    ])
  if (asked.paymentRail !== undefined && asked.paymentRail !== 'BALANCE')
    throw invalid('invalid_payment_rail', 'A balance account source moves on BALANCE', [
      { field: 'source.paymentRail', message: 'must be BALANCE (or omitted) with source.accountId', value: asked.paymentRail },
    ])
  active(account, 'source.accountId')
  return balanceSide(account, currencyOf(account, asked.currency, 'source.currency'))
}

/** A source without an account: a fiat rail or a chain the customer sends funds on. */
export function externalSourceSide(paymentRail: string | undefined, currency: string | undefined): RouteSide {
  if (paymentRail === undefined || paymentRail === 'BALANCE')
    throw invalid('source_required', 'Name a source: a balance account (source.accountId) or the rail or chain the funds arrive on', [
      { field: 'source.paymentRail', message: 'a fiat rail or a chain when source.accountId is omitted' },
    ])
  if (currency === undefined)
    throw invalid('currency_required', 'source.currency is required for a rail or chain source', [
      { field: 'source.currency', message: 'is required' },
    ])
  if (isChain(paymentRail)) return { kind: 'CHAIN', chain: paymentRail, currency }
  if (isRail(paymentRail)) return { kind: 'FIAT_RAIL', rail: paymentRail, currency }
  throw invalid('invalid_payment_rail', `${paymentRail} is not a rail or chain`, [
    { field: 'source.paymentRail', message: 'a rail or a chain', value: paymentRail },
  ])
}

/**
 * The destination account as a side: its kind decides the rail. `whatever its status`: the side of
 * money already received (a fixed route's deposit), planned to be held when its account is not ACTIVE.
 */
export function destinationAccountSide(
  account: OpenAccountState,
  asked: { currency?: string | undefined; paymentRail?: string | undefined },
  options: { whateverItsStatus?: boolean } = {},
): RouteSide {
  const details = account.account.details
  const id = account.account.accountId
  if (options.whateverItsStatus !== true) active(account, 'destination.accountId')
  const currency = currencyOf(account, asked.currency, 'destination.currency')
  const railRefused = (allowed: readonly string[]) =>
    invalid('invalid_payment_rail', `Account ${id} is paid on ${allowed.join(', ')}`, [
      { field: 'destination.paymentRail', message: `one of ${allowed.join(', ')}`, value: asked.paymentRail },
    ])
  switch (details.kind) {
    case 'USD_BALANCE':
    case 'STABLECOIN_BALANCE':
      if (asked.paymentRail !== undefined && asked.paymentRail !== 'BALANCE') throw railRefused(['BALANCE'])
      return balanceSide(account, currency)
    case 'EXTERNAL_BANK': {
      const rails = account.account.paymentRails
      const rail = asked.paymentRail ?? rails[0]
      if (rail === undefined || !rails.includes(rail as PaymentRail) || !isRail(rail)) throw railRefused(rails)
      return { kind: 'FIAT_RAIL', rail, currency }
    }
    case 'EXTERNAL_WALLET': {
      const chain = asked.paymentRail ?? details.chains[0]
      if (chain === undefined || !isChain(chain) || !details.chains.includes(chain)) throw railRefused(details.chains)
      return { kind: 'CHAIN', chain, currency }
    }
    case 'VIRTUAL_BANK':
    case 'DEPOSIT_WALLET':
      // A fixed route's deposit account only takes deposits, which sweep on: pay its target instead.
      throw invalid('account_not_a_destination', `Account ${id} is a fixed route's deposit account; pay its sweep target instead`, [
        { field: 'destination.accountId', message: 'must be a balance account, an external bank account or an external wallet', value: id },
      ])
  }
}
