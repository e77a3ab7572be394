// A transfer's sides from the accounts a request names (domain/transfer/accountSides.ts): the
// source balance must be the sender's, eligible and ACTIVE; a destination balance is paid on
// BALANCE, an external bank on one of its rails, an external wallet on one of its chains; each
// refusal names its field. Accounts are folded from AccountOpened events by the account decider.
import t, { type Test } from 'tap'
import { type OpenAccountState, accountDecider } from '../../../domain/account/decider.js'
import type { AccountEvent } from '../../../domain/account/events.js'
import { DomainError } from '../../../domain/errors.js'
import { destinationAccountSide, externalSourceSide, sourceBalanceSide } from '../../../domain/transfer/accountSides.js'
import { CUSTOMER, ORG, OTHER_CUSTOMER, T0 } from './transferFixtures.js'

type Opened = Extract<AccountEvent, { type: 'AccountOpened' }>['data']

const base = {
  organizationId: ORG,
  customerId: CUSTOMER,
  status: 'ACTIVE' as const,
  provider: 'SANDBOX',
  counterpartyId: null,
  metadata: {},
  at: T0,
}
const USD: Opened = {
  ...base,
  accountId: 'acc_01jdtfr0000000000000000001',
  kind: 'USD_BALANCE',
  type: 'INFINITE_BANK',
  currencyCodes: ['USD'],
  paymentRails: ['ACH', 'WIRE', 'BALANCE'],
  holdsBalance: true,
  balanceSourceEligible: true,
  details: { kind: 'USD_BALANCE' },
}
const WALLET: Opened = {
  ...base,
  accountId: 'inw_01jdtfr0000000000000000001',
  kind: 'STABLECOIN_BALANCE',
  type: 'INFINITE_WALLET',
  currencyCodes: ['USDC', 'USDT'],
  paymentRails: ['BALANCE'],
  holdsBalance: true,
  balanceSourceEligible: true,
  details: { kind: 'STABLECOIN_BALANCE', chain: 'SOLANA', addressType: 'SOLANA', walletAddress: 'So1anaWa11et', walletType: 'CUSTOMER' },
}
const BANK: Opened = {
  ...base,
  accountId: 'eba_01jdtfr0000000000000000001',
  kind: 'EXTERNAL_BANK',
  type: 'EXTERNAL_BANK',
  currencyCodes: ['USD'],
  paymentRails: ['ACH', 'WIRE'],
  holdsBalance: false,
  balanceSourceEligible: false,
  details: {
    kind: 'EXTERNAL_BANK',
    accountOwnerName: 'Ada Lovelace',
    accountOwnerType: 'INDIVIDUAL',
    bankName: 'First Sandbox Bank',
    bankCountry: 'US',
    currency: 'USD',
    accountType: 'CHECKING',
    accountNumber: '000123456789',
    routingNumber: '021000021',
    iban: null,
    bic: null,
    last4: '6789',
  },
}
const EXTERNAL_WALLET: Opened = {
  ...base,
  accountId: 'ewa_01jdtfr0000000000000000001',
  kind: 'EXTERNAL_WALLET',
  type: 'EXTERNAL_WALLET',
  currencyCodes: ['USDC'],
  paymentRails: [],
  holdsBalance: false,
  balanceSourceEligible: false,
  details: {
    kind: 'EXTERNAL_WALLET',
    walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    addressType: 'EVM',
    chains: ['ETHEREUM', 'BASE'],
    currencies: ['USDC'],
    custodyType: 'SELF_HOSTED',
    isThirdParty: false,
    externalReference: null,
  },
}

function account(data: Opened, ...more: AccountEvent[]): OpenAccountState {
  const state = [{ type: 'AccountOpened' as const, data }, ...more].reduce(accountDecider.evolve, accountDecider.initialState())
  if (state.status === 'none') throw new Error('not opened')
  return state
}
const closed = (data: Opened) =>
  account(data, { type: 'AccountClosed', data: { accountId: data.accountId, organizationId: ORG, reason: 'CLOSED_BY_CALLER', at: T0 } })

function refused(t: Test, run: () => unknown, code: string, field: string) {
  try {
    run()
    t.fail(`expected ${code}`)
  } catch (error) {
    t.ok(error instanceof DomainError)
    t.equal((error as DomainError).code, code)
    t.equal((error as DomainError).details[0]?.field, field, `${code} names ${field}`)
  }
}

t.test('sourceBalanceSide: the sender’s own eligible ACTIVE balance account', async (t) => {
  t.same(sourceBalanceSide(account(USD), CUSTOMER, {}), {
    kind: 'BALANCE',
    accountId: USD.accountId,
    currency: 'USD',
    assetClass: 'FIAT',
    chain: null,
  })
  t.same(sourceBalanceSide(account(WALLET), CUSTOMER, { currency: 'USDT', paymentRail: 'BALANCE' }), {
    kind: 'BALANCE',
    accountId: WALLET.accountId,
    currency: 'USDT',
    assetClass: 'CRYPTO',
    chain: 'SOLANA',
  })
  refused(t, () => sourceBalanceSide(account(BANK), CUSTOMER, {}), 'account_not_balance_source', 'source.accountId')
  refused(
    t,
    () => sourceBalanceSide(account({ ...USD, balanceSourceEligible: false }), CUSTOMER, {}),
    'account_not_balance_source',
    'source.accountId',
  )
  refused(t, () => sourceBalanceSide(account(USD), OTHER_CUSTOMER, {}), 'account_not_owned_by_sender', 'source.accountId')
  refused(t, () => sourceBalanceSide(account(USD), CUSTOMER, { paymentRail: 'ACH' }), 'invalid_payment_rail', 'source.paymentRail')
  refused(t, () => sourceBalanceSide(closed(USD), CUSTOMER, {}), 'account_not_active', 'source.accountId')
  refused(t, () => sourceBalanceSide(account({ ...USD, status: 'IN_REVIEW' }), CUSTOMER, {}), 'account_not_active', 'source.accountId')
  refused(t, () => sourceBalanceSide(account(WALLET), CUSTOMER, {}), 'currency_required', 'source.currency')
  refused(t, () => sourceBalanceSide(account(USD), CUSTOMER, { currency: 'EUR' }), 'currency_not_supported', 'source.currency')
  try {
    sourceBalanceSide(closed(USD), CUSTOMER, {})
  } catch (error) {
    t.match(error, { kind: 'conflict' }, 'an inactive account is a conflict, not a validation error')
  }
})

t.test('externalSourceSide: a fiat rail or a chain, with its currency', async (t) => {
  t.same(externalSourceSide('ACH', 'USD'), { kind: 'FIAT_RAIL', rail: 'ACH', currency: 'USD' })
  t.same(externalSourceSide('ETHEREUM', 'USDC'), { kind: 'CHAIN', chain: 'ETHEREUM', currency: 'USDC' })
  refused(t, () => externalSourceSide(undefined, 'USD'), 'source_required', 'source.paymentRail')
  refused(t, () => externalSourceSide('BALANCE', 'USD'), 'source_required', 'source.paymentRail')
  refused(t, () => externalSourceSide('ACH', undefined), 'currency_required', 'source.currency')
  refused(t, () => externalSourceSide('PIGEON', 'USD'), 'invalid_payment_rail', 'source.paymentRail')
})

t.test('destinationAccountSide: a balance on BALANCE, a bank on its rails, a wallet on its chains', async (t) => {
  t.same(destinationAccountSide(account(USD), {}), {
    kind: 'BALANCE',
    accountId: USD.accountId,
    currency: 'USD',
    assetClass: 'FIAT',
    chain: null,
  })
  refused(t, () => destinationAccountSide(account(USD), { paymentRail: 'ACH' }), 'invalid_payment_rail', 'destination.paymentRail')
  t.same(destinationAccountSide(account(BANK), {}), { kind: 'FIAT_RAIL', rail: 'ACH', currency: 'USD' }, 'the bank’s first rail by default')
  t.same(destinationAccountSide(account(BANK), { paymentRail: 'WIRE' }), { kind: 'FIAT_RAIL', rail: 'WIRE', currency: 'USD' })
  refused(t, () => destinationAccountSide(account(BANK), { paymentRail: 'SEPA' }), 'invalid_payment_rail', 'destination.paymentRail')
  t.same(destinationAccountSide(account(EXTERNAL_WALLET), {}), { kind: 'CHAIN', chain: 'ETHEREUM', currency: 'USDC' })
  t.same(destinationAccountSide(account(EXTERNAL_WALLET), { paymentRail: 'BASE' }), { kind: 'CHAIN', chain: 'BASE', currency: 'USDC' })
  refused(
    t,
    () => destinationAccountSide(account(EXTERNAL_WALLET), { paymentRail: 'SOLANA' }),
    'invalid_payment_rail',
    'destination.paymentRail',
  )
  refused(t, () => destinationAccountSide(account(EXTERNAL_WALLET), { currency: 'USDT' }), 'currency_not_supported', 'destination.currency')
  refused(t, () => destinationAccountSide(closed(BANK), {}), 'account_not_active', 'destination.accountId')
  t.same(destinationAccountSide(account(WALLET), { currency: 'USDC' }), {
    kind: 'BALANCE',
    accountId: WALLET.accountId,
    currency: 'USDC',
    assetClass: 'CRYPTO',
    chain: 'SOLANA',
  })
})
