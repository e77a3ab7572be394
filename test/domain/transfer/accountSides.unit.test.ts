// A transfer's sides from the accounts a request names (domain/transfer/accountSides.ts): the
// source balance must be the sender's, eligible and ACTIVE; a destination balance is paid on
// BALANCE, an external bank on one of its rails, an external wallet on one of its chains; each
// refusal names its field. Accounts are folded from AccountOpened events by the account decider.
import t, { type Test } from 'tap'
import { DomainError } from '../../../domain/errors.js'
import { destinationAccountSide, externalSourceSide, sourceBalanceSide } from '../../../domain/transfer/accountSides.js'
import { BANK, EXTERNAL_WALLET, USD, WALLET, account, closed } from './accountFixtures.js'
import { CUSTOMER, OTHER_CUSTOMER } from './transferFixtures.js'

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
