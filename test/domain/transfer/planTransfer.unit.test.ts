// A transfer's creation rules (domain/transfer/planTransfer.ts), pure: given a create request, the
// facts of the accounts and sender it names and the randomness drawn beforehand, when the decider
// plans it (RequestTransfer), then TransferCreated carries the plan, or a 422 names what is wrong
// and nothing is decided. The same input plans the same transfer.
import t, { type Test } from 'tap'
import { customerDecider } from '../../../domain/customer/decider.js'
import type { Capability } from '../../../domain/customer/rules/capabilities.js'
import type { Customer } from '../../../domain/customer/state.js'
import { DomainError } from '../../../domain/errors.js'
import type { CreateTransferBody } from '../../../domain/transfer/createTransferBody.js'
import { transferDecider } from '../../../domain/transfer/decider.js'
import {
  type PlanEntropy,
  type TransferFacts,
  type TransferPlanInput,
  destinationAccountIdOf,
  planTransfer,
} from '../../../domain/transfer/planTransfer.js'
import { individualCreated } from '../customerEvents.js'
import { BANK, EXTERNAL_WALLET, USD, WALLET, account } from './accountFixtures.js'
import { CUSTOMER, ORG, T0, TRANSFER } from './transferFixtures.js'

const ENTROPY: PlanEntropy = {
  legIds: ['tleg_01jdtfr0000000000000000001', 'tleg_01jdtfr0000000000000000002', 'tleg_01jdtfr0000000000000000003', 'tleg_x4'],
  depositAddressSeed: new Uint8Array(32).fill(7),
}

function sender(status: Customer['status'], capabilities: Capability[]): Customer {
  const state = customerDecider.evolve(customerDecider.initialState(), individualCreated(T0, { organizationId: ORG, customerId: CUSTOMER }))
  if (!state.exists) throw new Error('customer not created')
  return { ...state, status, individual: { ...state.individual, requestedCapabilities: capabilities } }
}
const APPROVED = sender('APPROVED', ['USD_BALANCE', 'USD_ACH_PAYOUT', 'USD_ACH_PAYIN', 'STABLECOIN_PAYOUT', 'STABLECOIN_PAYIN'])

const payout: CreateTransferBody = {
  source: { accountId: USD.accountId },
  destination: { accountId: BANK.accountId, paymentRail: 'ACH' },
  sourceAmount: '10000',
  developerFeeFixed: '100',
}
const payoutFacts: TransferFacts = { sender: APPROVED, sourceAccount: account(USD), destinationAccount: account(BANK) }

const input = (body: CreateTransferBody, facts: TransferFacts, more: Partial<TransferPlanInput> = {}): TransferPlanInput => ({
  body,
  facts,
  environment: 'sandbox',
  transferId: TRANSFER,
  now: new Date(T0),
  entropy: ENTROPY,
  ...more,
})

function refused(t: Test, run: () => unknown, code: string, field?: string) {
  try {
    run()
    t.fail(`expected ${code}`)
  } catch (error) {
    t.ok(error instanceof DomainError, `${code} is a domain error`)
    t.equal((error as DomainError).code, code)
    if (field !== undefined) t.equal((error as DomainError).details[0]?.field, field, `${code} names ${field}`)
  }
}

t.test('a balance payout: the sides, the fee withheld, the legs with the drawn ids, PENDING', async (t) => {
  const plan = planTransfer(input(payout, payoutFacts))
  t.match(plan, {
    customerId: CUSTOMER,
    flow: 'FIAT_TO_FIAT',
    status: 'PENDING',
    funding: 'BALANCE',
    source: { kind: 'BALANCE', accountId: USD.accountId, currency: 'USD' },
    destination: { kind: 'FIAT_RAIL', paymentRail: 'ACH', externalAccountId: BANK.accountId, accountName: 'Ada Lovelace' },
    sourceAmount: { currency: 'USD', amountMinor: '10000' },
    destinationAmount: { currency: 'USD', amountMinor: '9900' },
    fee: { fixedMinor: '100', amountMinor: '100' },
    depositInstructions: null,
  })
  t.same(
    plan.legs.map((leg) => leg.id),
    ENTROPY.legIds.slice(0, plan.legs.length),
  )
  t.same(planTransfer(input(payout, payoutFacts)), plan, 'the same input plans the same transfer')
  t.equal(planTransfer(input({ ...payout, confirm: false }, payoutFacts)).status, 'DRAFT')
})

t.test('a chain deposit: the deposit address comes from the drawn seed', async (t) => {
  const body: CreateTransferBody = {
    source: { paymentRail: 'SOLANA', currency: 'USDC' },
    destination: { accountId: WALLET.accountId, currency: 'USDC' },
    sourceCustomerId: CUSTOMER,
    sourceAmount: '1000000',
  }
  const facts: TransferFacts = { sender: APPROVED, destinationAccount: account(WALLET) }
  const first = planTransfer(input(body, facts))
  t.equal(first.funding, 'DEPOSIT')
  t.ok(first.depositInstructions, 'a deposit-funded transfer says where to send the money')
  t.same(planTransfer(input(body, facts)).depositInstructions, first.depositInstructions, 'same seed, same address')
  const other = planTransfer(input(body, facts, { entropy: { ...ENTROPY, depositAddressSeed: new Uint8Array(32).fill(9) } }))
  t.not(JSON.stringify(other.depositInstructions), JSON.stringify(first.depositInstructions), 'another seed, another address')
})

t.test('the rules refuse with a 422 naming the field', async (t) => {
  refused(
    t,
    () => destinationAccountIdOf({ ...payout, destination: { accountId: BANK.accountId, externalAccountId: EXTERNAL_WALLET.accountId } }),
    'destination_ambiguous',
    'destination.externalAccountId',
  )
  refused(
    t,
    () => destinationAccountIdOf({ ...payout, destination: { accountId: BANK.accountId, toAddress: '0xabc' } }),
    'destination_ambiguous',
    'destination.toAddress',
  )
  refused(
    t,
    () => planTransfer(input({ ...payout, destination: {} }, { ...payoutFacts, destinationAccount: undefined })),
    'destination_required',
  )
  refused(t, () => planTransfer(input({ ...payout, destinationAmount: '5' }, payoutFacts)), 'amount_side_required')
  // A quote of another customer's, for other currencies: every misfit named, the customer first.
  const quote = {
    quoteId: 'fxq_1',
    organizationId: ORG,
    customerId: 'cus_other',
    pair: { sourceCurrency: 'USDC', sourceNetwork: 'SOLANA' as const, destinationCurrency: 'EUR', destinationRail: 'SEPA' as const },
    amountSide: 'SOURCE' as const,
    sourceAmountMinor: '10000000',
    destinationAmountMinor: '9177',
    feeMinor: '25000',
    spreadBps: 25,
    exchangeRate: '0.0009177',
    rate: '0.9177',
    referenceRate: '0.92',
    referenceProvider: 'SANDBOX_REFERENCE',
    referenceRateAsOf: T0,
    expiresAt: T0,
    createdAt: T0,
  }
  refused(t, () => planTransfer(input({ ...payout, quoteId: 'fxq_1' }, { ...payoutFacts, quote })), 'quote_mismatch', 'quoteId')
  refused(t, () => planTransfer(input(payout, { ...payoutFacts, sender: sender('UNDER_REVIEW', []) })), 'customer_not_approved')
  refused(
    t,
    () => planTransfer(input(payout, { ...payoutFacts, sender: sender('APPROVED', ['USD_BALANCE']) })),
    'customer_capability_missing',
  )
  refused(
    t,
    () =>
      planTransfer(
        input(
          {
            ...payout,
            source: { paymentRail: 'SOLANA', currency: 'USDC' },
            destination: { paymentRail: 'SOLANA', currency: 'USDC', toAddress: 'nope' },
          },
          { sender: APPROVED },
        ),
      ),
    'invalid_wallet_address',
    'destination.toAddress',
  )
})

t.test('money already received plans whatever the sender’s standing', async (t) => {
  const facts = { ...payoutFacts, sender: sender('UNDER_REVIEW', []) }
  t.equal(planTransfer(input(payout, facts, { planning: { receivedDeposit: true } })).customerId, CUSTOMER)
})

t.test('RequestTransfer: the decider plans, and refuses what the source balance cannot cover', async (t) => {
  const command = (body: CreateTransferBody) => ({
    type: 'RequestTransfer' as const,
    organizationId: ORG,
    transferId: TRANSFER,
    now: T0,
    request: { body, facts: payoutFacts, environment: 'sandbox' as const, entropy: ENTROPY },
  })
  refused(t, () => transferDecider.decide(command(payout), transferDecider.initialState()), 'insufficient_funds', 'sourceAmount')
  const [created, ...rest] = transferDecider.decide(command({ ...payout, confirm: false }), transferDecider.initialState())
  t.equal(rest.length, 0)
  t.match(created, { type: 'TransferCreated', data: { transferId: TRANSFER, organizationId: ORG, at: T0, status: 'DRAFT' } })
  t.same(
    created!.data,
    transferDecider.decide(command({ ...payout, confirm: false }), transferDecider.initialState())[0]!.data,
    'deterministic',
  )
  const state = transferDecider.evolve(transferDecider.initialState(), created!)
  refused(t, () => transferDecider.decide(command(payout), state), 'transfer_exists')
})
