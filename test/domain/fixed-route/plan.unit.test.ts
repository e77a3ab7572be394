// Planning a fixed route (domain/fixed-route/plan.ts), pure: the source (fiat rails by currency, or
// one chain), the target (the customer's own, or a treasury wallet of the organization) checked as a
// transfer route, the flow, the mint flag (a treasury wallet of USDT or USAT on Ethereum), and every
// refusal naming its field.
import t, { type Test } from 'tap'
import { type OpenAccountState, accountDecider } from '../../../domain/account/decider.js'
import type { AccountEvent } from '../../../domain/account/events.js'
import { DomainError } from '../../../domain/errors.js'
import { type FixedRouteFacts, type FixedRouteInput, planFixedRoute } from '../../../domain/fixed-route/plan.js'
import type { Chain } from '../../../domain/shared/chain/index.js'

type Opened = Extract<AccountEvent, { type: 'AccountOpened' }>['data']
const ORG = 'org_01jdfr00000000000000000001'
const CUS = 'cus_01jdfr00000000000000000001'
const OTHER = 'cus_01jdfr00000000000000000002'
const ALL = ['USD_ACH_PAYIN', 'USD_WIRE_PAYIN', 'SWIFT_PAYIN', 'STABLECOIN_PAYIN', 'STABLECOIN_PAYOUT', 'USD_BALANCE', 'STABLECOIN_SWAPS']

const opened = (data: Partial<Opened> & Pick<Opened, 'accountId' | 'details' | 'kind' | 'type' | 'currencyCodes'>): OpenAccountState => {
  const full: Opened = {
    organizationId: ORG,
    customerId: CUS,
    status: 'ACTIVE',
    paymentRails: ['BALANCE'],
    holdsBalance: true,
    balanceSourceEligible: true,
    provider: 'SANDBOX',
    counterpartyId: null,
    metadata: {},
    at: '2026-11-24T08:00:00.000Z',
    ...data,
  }
  const state = accountDecider.evolve(accountDecider.initialState(), { type: 'AccountOpened', data: full })
  if (state.status === 'none') throw new Error('not opened')
  return state
}
const usd = (customerId: string | null = CUS) =>
  opened({
    accountId: 'acc_01jdfr00000000000000000001',
    customerId,
    kind: 'USD_BALANCE',
    type: 'INFINITE_BANK',
    currencyCodes: ['USD'],
    details: { kind: 'USD_BALANCE' },
  })
const wallet = (currency: string, chain: Chain, walletType: 'TREASURY' | 'CUSTOMER') =>
  opened({
    accountId: 'inw_01jdfr00000000000000000001',
    customerId: walletType === 'TREASURY' ? null : CUS,
    kind: 'STABLECOIN_BALANCE',
    type: 'INFINITE_WALLET',
    currencyCodes: [currency],
    details: { kind: 'STABLECOIN_BALANCE', chain, addressType: chain === 'TRON' ? 'TRON' : 'EVM', walletAddress: '0xabc', walletType },
  })

const facts = (target: OpenAccountState, over: Partial<FixedRouteFacts> = {}): FixedRouteFacts => ({
  customer: { customerId: CUS, status: 'APPROVED', requestedCapabilities: ALL },
  target,
  refund: undefined,
  documents: {},
  organizationId: ORG,
  ...over,
})

function refused(t: Test, input: FixedRouteInput, f: FixedRouteFacts, code: string, field: string) {
  try {
    planFixedRoute(input, f)
    t.fail(`expected ${code}`)
  } catch (error) {
    t.ok(error instanceof DomainError)
    t.equal((error as DomainError).code, code)
    t.ok(
      (error as DomainError).details?.some((d) => d.field === field),
      `names ${field}: ${JSON.stringify((error as DomainError).details)}`,
    )
  }
}

t.test('fiat and crypto sources, their defaults and flows', async (t) => {
  const route = planFixedRoute({ sourceCurrency: 'USD', sweepTargetAccountId: 'acc_x' }, facts(usd()))
  t.match(route, { type: 'FIAT_TO_FIAT', sourceRails: ['ACH', 'WIRE'], chain: null, destinationRail: 'BALANCE', mintOnDelivery: false })
  const eur = planFixedRoute({ sourceCurrency: 'EUR', sweepTargetAccountId: 'inw_x' }, facts(wallet('USDC', 'SOLANA', 'CUSTOMER')))
  t.match(eur, { type: 'FIAT_TO_CRYPTO', sourceRails: ['SEPA'], destinationCurrency: 'USDC' })
  const crypto = planFixedRoute({ sourceCurrency: 'USDC', chain: 'SOLANA', sweepTargetAccountId: 'acc_x' }, facts(usd()))
  t.match(crypto, { type: 'CRYPTO_TO_FIAT', sourceRails: [], chain: 'SOLANA' })
  const fee = planFixedRoute(
    { sourceCurrency: 'USD', sweepTargetAccountId: 'acc_x', developerFeeFixed: '25', developerFeePercent: 0.015, minimumAmount: '500' },
    facts(usd()),
  )
  t.match(fee, { developerFeeFixedMinor: '25', developerFeePercent: '0.015', minimumAmountMinor: '500' })
})

t.test('a treasury wallet target: allowed; minted for USDT and USAT on Ethereum only', async (t) => {
  for (const [currency, chain, minted] of [
    ['USDT', 'ETHEREUM', true],
    ['USAT', 'ETHEREUM', true],
    ['USDC', 'ETHEREUM', false],
    ['USDT', 'TRON', false],
  ] as const)
    t.equal(
      planFixedRoute({ sourceCurrency: 'USD', sweepTargetAccountId: 'inw_x' }, facts(wallet(currency, chain, 'TREASURY'))).mintOnDelivery,
      minted,
      `${currency} on ${chain}`,
    )
  t.equal(
    planFixedRoute({ sourceCurrency: 'USD', sweepTargetAccountId: 'inw_x' }, facts(wallet('USDT', 'ETHEREUM', 'CUSTOMER'))).mintOnDelivery,
    false,
    'a customer wallet is never minted into',
  )
})

t.test('refusals name their fields', async (t) => {
  refused(t, { sourceCurrency: 'USD', sweepTargetAccountId: 'acc_x' }, facts(usd(OTHER)), 'invalid_fixed_route', 'sweepTargetAccountId')
  refused(
    t,
    { sourceCurrency: 'USD', sourceRails: ['SEPA'], sweepTargetAccountId: 'acc_x' },
    facts(usd()),
    'invalid_fixed_route',
    'sourceRails.0',
  )
  refused(t, { sourceCurrency: 'USD', chain: 'SOLANA', sweepTargetAccountId: 'acc_x' }, facts(usd()), 'invalid_fixed_route', 'chain')
  refused(
    t,
    { sourceCurrency: 'USDT', chain: 'BASE', sweepTargetAccountId: 'acc_x' },
    facts(usd()),
    'invalid_fixed_route',
    'sourceCurrency',
  )
  refused(
    t,
    { sourceCurrency: 'USDC', chain: 'SOLANA', sweepTargetAccountId: 'acc_x', allowedSenderBanks: [{ bankName: 'X' }] },
    facts(usd()),
    'invalid_fixed_route',
    'allowedSenderBanks',
  )
  refused(
    t,
    { sourceCurrency: 'USD', sweepTargetAccountId: 'acc_x', minimumAmount: '0' },
    facts(usd()),
    'invalid_fixed_route',
    'minimumAmount',
  )
  refused(
    t,
    { sourceCurrency: 'USD', sweepTargetAccountId: 'acc_x', destinationRail: 'ACH' },
    facts(usd()),
    'invalid_payment_rail',
    'destinationRail',
  )
  refused(
    t,
    { sourceCurrency: 'USD', sweepTargetAccountId: 'acc_x', refundAccountId: 'inw_x' },
    facts(usd(), { refund: wallet('USDC', 'SOLANA', 'CUSTOMER') }),
    'currency_not_supported',
    'refundAccountId',
  )
  refused(
    t,
    { sourceCurrency: 'USD', sweepTargetAccountId: 'acc_x', documentIds: ['doc_1'] },
    facts(usd(), { documents: { doc_1: { organizationId: ORG, customerId: OTHER } } }),
    'invalid_fixed_route',
    'documentIds.0',
  )
  refused(
    t,
    { sourceCurrency: 'USD', sweepTargetAccountId: 'acc_x' },
    facts(usd(), { customer: { customerId: CUS, status: 'APPROVED', requestedCapabilities: ['USD_BALANCE'] } }),
    'customer_capability_missing',
    'requestedCapabilities',
  )
})
