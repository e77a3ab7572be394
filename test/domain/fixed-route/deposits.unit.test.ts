// A fixed route's deposits, pure: the rail taken, the remitter recorded (rule 2), the holds (rules 3
// and the minimum), the coordinates' check digits; and the account decider recording a deposit once
// per reference and amount, given/when/then.
import t from 'tap'
import fc from 'fast-check'
import { accountDecider } from '../../../domain/account/decider.js'
import type { AccountEvent } from '../../../domain/account/events.js'
import { bankCoordinates } from '../../../domain/fixed-route/depositCoordinates.js'
import { depositHold, depositKey, depositOriginator, depositRail } from '../../../domain/fixed-route/deposits.js'
import type { FixedRouteConfig } from '../../../domain/fixed-route/routeConfig.js'
import { validateAbaRoutingNumber, validateIban } from '../../../domain/shared/bank/index.js'
import { SANDBOX_REMITTER } from '../../../domain/rails/sandboxRemitter.js'
import { spec } from '../deciderSpec.js'
import { recentGet } from '../../../domain/shared/recentEntries.js'

const ORG = 'org_01h00000000000000000000001'
const ROUTE = 'vba_01h00000000000000000000001'
const CUS = 'cus_01h00000000000000000000001'
const NOW = '2026-11-24T12:00:00.000Z'

const config = (over: Partial<FixedRouteConfig> = {}): FixedRouteConfig => ({
  type: 'FIAT_TO_FIAT',
  sourceCurrency: 'USD',
  sourceRails: ['ACH', 'WIRE'],
  chain: null,
  sweepTargetAccountId: 'acc_01h00000000000000000000001',
  destinationCurrency: 'USD',
  destinationRail: 'BALANCE',
  developerFeeFixedMinor: '0',
  developerFeePercent: null,
  refundAccountId: null,
  allowedSenderBanks: [],
  minimumAmountMinor: null,
  correspondentBank: null,
  documentIds: [],
  mintOnDelivery: false,
  ...over,
})

t.test('the rail: the one asked when listed, else refused; by default ACH, else the first; a crypto route its chain', async (t) => {
  t.same(depositRail(config(), undefined), { rail: 'ACH' })
  t.same(depositRail(config(), 'WIRE'), { rail: 'WIRE' })
  t.match(depositRail(config(), 'SWIFT'), { refused: { field: 'rail', value: 'SWIFT' } })
  t.same(depositRail(config({ sourceRails: ['SEPA', 'SWIFT'] }), undefined), { rail: 'SEPA' })
  t.same(depositRail(config({ sourceRails: [], chain: 'SOLANA', sourceCurrency: 'USDC' }), 'WIRE'), { rail: 'SOLANA' }, 'rail ignored')
})

t.test('rule 2: the remitter recorded', async (t) => {
  t.same(depositOriginator(config(), 'WIRE', undefined, undefined), { ...SANDBOX_REMITTER }, 'wire: the sandbox remitter')
  t.match(depositOriginator(config(), 'ACH', undefined, undefined), {
    name: SANDBOX_REMITTER.name,
    routingNumber: '021000021',
    bankName: null,
    accountNumber: null,
  })
  t.equal(depositOriginator(config(), 'WIRE', {}, undefined), null, '{}: none')
  t.match(depositOriginator(config(), 'WIRE', { name: 'Ada' }, undefined), { name: 'Ada', bankName: null })
  const crypto = config({ sourceRails: [], chain: 'SOLANA', sourceCurrency: 'USDC' })
  t.equal(depositOriginator(crypto, 'SOLANA', undefined, undefined), null, 'crypto: none')
  const listed = config({ allowedSenderBanks: [{ bankName: null, routingNumber: '021000021', swiftBic: null }] })
  t.equal(depositOriginator(listed, 'WIRE', undefined, undefined), null, 'with allowedSenderBanks: no default remitter')
  t.match(depositOriginator(listed, 'WIRE', undefined, { routingNumber: '021000021' }), { name: null, routingNumber: '021000021' })
})

t.test('rule 3 and the minimum: held, fail closed', async (t) => {
  const listed = config({
    allowedSenderBanks: [
      { bankName: null, routingNumber: '021000021', swiftBic: null },
      { bankName: 'Barclays', routingNumber: null, swiftBic: 'BARCGB22XXX' },
    ],
    minimumAmountMinor: '500',
  })
  const hold = (over: Partial<Parameters<typeof depositHold>[1]>) =>
    depositHold(listed, { amountMinor: 1000n, displayAmount: '10.00 USD', senderBank: undefined, originator: null, ...over })?.code ?? null
  t.equal(hold({}), 'deposit_unattributed')
  t.equal(
    hold({ originator: { name: 'Ada', bankName: null, routingNumber: null, accountNumber: null, swiftBic: null, bankCountry: null } }),
    'deposit_unattributed',
  )
  t.equal(hold({ senderBank: { routingNumber: '011000015' } }), 'sender_bank_not_allowed')
  t.equal(hold({ senderBank: { routingNumber: '021000021' } }), null)
  t.equal(hold({ senderBank: { bankName: ' barclays ', swiftBic: 'BARCGB22' } }), null, 'a BIC by its first 8 characters, a name by case')
  t.equal(hold({ senderBank: { bankName: 'Barclays' } }), 'sender_bank_not_allowed', 'every field the entry names must match')
  t.equal(hold({ senderBank: { routingNumber: '021000021' }, amountMinor: 499n }), 'below_minimum_amount')
  t.equal(depositHold(config(), { amountMinor: 1n, displayAmount: '0.01 USD', senderBank: undefined, originator: null }), null)
})

t.test('coordinates pass their check digits, whatever the random bytes', async (t) => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (random) => {
      const usd = bankCoordinates({ currency: 'USD', beneficiaryName: 'Ada', beneficiaryAddress: null, random })
      const eur = bankCoordinates({ currency: 'EUR', beneficiaryName: 'Ada', beneficiaryAddress: null, random })
      return (
        validateAbaRoutingNumber(usd.routingNumber!).ok &&
        /^8\d{11}$/.test(usd.accountNumber!) &&
        usd.last4 === usd.accountNumber!.slice(-4) &&
        validateIban(eur.iban!).ok &&
        eur.iban!.startsWith('DE')
      )
    }),
  )
  t.pass('1 000 random draws checked')
})

t.test('the account decider records a deposit once per reference and amount', async (t) => {
  const opened: AccountEvent = {
    type: 'AccountOpened',
    data: {
      accountId: ROUTE,
      organizationId: ORG,
      customerId: CUS,
      kind: 'VIRTUAL_BANK',
      type: 'VIRTUAL_BANK',
      status: 'ACTIVE',
      currencyCodes: ['USD'],
      paymentRails: ['ACH', 'WIRE'],
      holdsBalance: false,
      balanceSourceEligible: false,
      provider: 'SANDBOX_BANK',
      counterpartyId: null,
      metadata: {},
      details: {
        kind: 'VIRTUAL_BANK',
        route: config(),
        coordinates: bankCoordinates({ currency: 'USD', beneficiaryName: 'Ada', beneficiaryAddress: null, random: new Uint8Array(16) }),
      },
      at: NOW,
    },
  }
  const deposit = {
    reference: 'r1',
    amount: { currency: 'USD', amountMinor: '1000' },
    rail: 'WIRE',
    originator: null,
    senderBank: null,
    hold: null,
    transferId: 'tfr_01h00000000000000000000001',
  }
  const record = { type: 'RecordFixedRouteDeposit' as const, organizationId: ORG, accountId: ROUTE, now: NOW, deposit, refusal: null }
  const received: AccountEvent = {
    type: 'FixedRouteDepositReceived',
    data: { accountId: ROUTE, organizationId: ORG, ...deposit, customerId: CUS, at: NOW },
  }
  const route = spec(accountDecider)
  route.given([opened]).when(record).then(t, [received])
  route
    .given([opened, received])
    .when({ ...record, deposit: { ...deposit, rail: 'ACH', transferId: 'tfr_x' } })
    .then(t, [], 'the same again: nothing')
  route
    .given([opened, received])
    .when({ ...record, deposit: { ...deposit, amount: { currency: 'USD', amountMinor: '999' } } })
    .thenThrows(t, 'reference_reused', 'another amount: the reference names another deposit already (409, as a fund-in)')
  route
    .given([opened, received])
    .when({ ...record, deposit: { ...deposit, reference: 'r2', amount: { currency: 'USD', amountMinor: '999' } } })
    .thenMatches(t, [{ type: 'FixedRouteDepositReceived' }], 'another reference: another deposit')
  const refusal = { code: 'rail_not_accepted', message: 'no', details: [] }
  route
    .given([opened])
    .when({ ...record, refusal })
    .thenThrows(t, 'rail_not_accepted')
  route
    .given([opened, received])
    .when({ ...record, refusal })
    .then(t, [], 'refused only when new')
  const disabled: AccountEvent = { type: 'FixedRouteDisabled', data: { accountId: ROUTE, organizationId: ORG, at: NOW } }
  route.given([opened, disabled]).when(record).thenThrows(t, 'fixed_route_disabled')
  route
    .given([opened])
    .when({ type: 'SetFixedRouteEnabled', organizationId: ORG, accountId: ROUTE, now: NOW, enabled: false })
    .then(t, [disabled])
  route
    .given([opened, disabled])
    .when({ type: 'SetFixedRouteEnabled', organizationId: ORG, accountId: ROUTE, now: NOW, enabled: false })
    .then(t, [], 'idempotent')
  const state = route.given([opened, received]).state
  t.equal(
    state.status === 'none' ? undefined : recentGet(state.deposits, depositKey('r1', '1000'))?.transferId,
    deposit.transferId,
    'remembered',
  )
})
