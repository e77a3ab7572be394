// Transfers for the domain tests, built the way the create command builds them (the sides' route,
// legs, price, deposit instructions and schedule from domain/transfer), and run through the real
// decider: every state a test needs comes from folding the events the decider itself decided.
import type { Test } from 'tap'
import { DomainError } from '../../../domain/errors.js'
import { type SandboxTrigger, achTraceNumber, imad, omad, txHash, uetr } from '../../../domain/rails/index.js'
import { CHAINS } from '../../../domain/shared/chain/index.js'
import { type OpenTransferState, type TransferCommand, type TransferState, transferDecider } from '../../../domain/transfer/decider.js'
import { depositInstructionsFor } from '../../../domain/transfer/depositInstructions.js'
import { type TransferCreatedData, type TransferEvent, transferEventSchemas } from '../../../domain/transfer/events.js'
import type { TrackingPool } from '../../../domain/transfer/legTracking.js'
import { type FeeTerms, price } from '../../../domain/transfer/pricing.js'
import { type RouteSide, deriveFlow, paymentRailOf, planLegs } from '../../../domain/transfer/route.js'
import { scheduleOf } from '../../../domain/transfer/schedule.js'
import type { TransferStatus } from '../../../domain/transfer/statuses.js'

export const ORG = 'org_01jdtfr0000000000000000001'
export const OTHER_ORG = 'org_01jdtfr0000000000000000002'
export const CUSTOMER = 'cus_01jdtfr0000000000000000001'
export const OTHER_CUSTOMER = 'cus_01jdtfr0000000000000000002'
export const TRANSFER = 'tfr_01jdtfr0000000000000000001'
export const T0 = '2026-11-24T08:00:00.000Z'
/** T0 plus `seconds`, as the ISO string events carry. */
export const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString()

export const SIDES = {
  usdBalance: { kind: 'BALANCE', accountId: 'acc_01jdtfr0000000000000000001', currency: 'USD', assetClass: 'FIAT', chain: null },
  otherUsdBalance: { kind: 'BALANCE', accountId: 'acc_01jdtfr0000000000000000002', currency: 'USD', assetClass: 'FIAT', chain: null },
  usdcBalance: { kind: 'BALANCE', accountId: 'inw_01jdtfr0000000000000000001', currency: 'USDC', assetClass: 'CRYPTO', chain: 'SOLANA' },
  usdtBalance: { kind: 'BALANCE', accountId: 'inw_01jdtfr0000000000000000002', currency: 'USDT', assetClass: 'CRYPTO', chain: 'SOLANA' },
  ach: { kind: 'FIAT_RAIL', rail: 'ACH', currency: 'USD' },
  wire: { kind: 'FIAT_RAIL', rail: 'WIRE', currency: 'USD' },
  swiftUsd: { kind: 'FIAT_RAIL', rail: 'SWIFT', currency: 'USD' },
  sepa: { kind: 'FIAT_RAIL', rail: 'SEPA', currency: 'EUR' },
  spei: { kind: 'FIAT_RAIL', rail: 'SPEI', currency: 'MXN' },
  ethUsdc: { kind: 'CHAIN', chain: 'ETHEREUM', currency: 'USDC' },
  solUsdc: { kind: 'CHAIN', chain: 'SOLANA', currency: 'USDC' },
  tronUsdt: { kind: 'CHAIN', chain: 'TRON', currency: 'USDT' },
  bitcoin: { kind: 'CHAIN', chain: 'BITCOIN', currency: 'BTC' },
} as const satisfies Record<string, RouteSide>

export type PlanOptions = {
  amount?: { side: 'SOURCE' | 'DESTINATION'; minor: bigint }
  fee?: FeeTerms
  status?: 'DRAFT' | 'PENDING'
  createdBy?: 'CALLER' | 'PLATFORM'
  heldByPlatform?: boolean
  sandboxTrigger?: SandboxTrigger | null
  refundAccountId?: string | null
  customerId?: string
}

/** A transfer's plan from its two sides, as commands/transfers/newTransfer.ts makes it. */
export function plan(
  source: RouteSide,
  destination: RouteSide,
  o: PlanOptions = {},
): Extract<TransferCommand, { type: 'CreateTransfer' }>['transfer'] {
  const fee = o.fee ?? { fixedMinor: 0n, percent: null }
  const priced = price({
    sourceCurrency: source.currency,
    destinationCurrency: destination.currency,
    amount: o.amount ?? {
      side: 'SOURCE',
      minor: 10_000n * 10n ** BigInt(source.currency === 'USDC' || source.currency === 'USDT' ? 6 : 2),
    },
    fee,
  })
  const sourceAmount = { currency: source.currency, amountMinor: priced.sourceMinor.toString() }
  const balance = (side: RouteSide) => (side.kind === 'BALANCE' ? side.accountId : null)
  return {
    customerId: o.customerId ?? CUSTOMER,
    flow: deriveFlow(source, destination),
    status: o.status ?? 'PENDING',
    createdBy: o.createdBy ?? 'CALLER',
    heldByPlatform: o.heldByPlatform ?? false,
    source: {
      kind: source.kind,
      currency: source.currency,
      paymentRail: paymentRailOf(source),
      accountId: balance(source),
      accountType: source.kind === 'BALANCE' ? (source.assetClass === 'FIAT' ? 'USD_BALANCE' : 'STABLECOIN_BALANCE') : null,
      externalAccountId: null,
      fromAddress: null,
      refundAccountId: o.refundAccountId ?? null,
      accountName: null,
    },
    destination: {
      kind: destination.kind,
      currency: destination.currency,
      paymentRail: paymentRailOf(destination),
      accountId: balance(destination),
      accountType: null,
      externalAccountId: null,
      toAddress: destination.kind === 'CHAIN' ? 'So11111111111111111111111111111111111111112' : null,
      accountName: null,
      bankName: null,
      bankCountryCode: null,
      wireMessage: null,
      achReference: null,
      swiftReference: null,
      rtpReference: null,
      payoutReference: null,
      customerId: destination.kind === 'BALANCE' ? CUSTOMER : null,
    },
    sourceAmount,
    destinationAmount: { currency: destination.currency, amountMinor: priced.destinationMinor.toString() },
    fee: { fixedMinor: fee.fixedMinor.toString(), percent: fee.percent, amountMinor: priced.feeMinor.toString() },
    rate: {
      exchangeRate: priced.exchangeRate,
      referenceRate: priced.referenceRate,
      referenceRateAsOf: T0,
      referenceProvider: priced.referenceProvider,
    },
    legs: planLegs(source, destination).map((leg, i) => ({ ...leg, id: `tleg_01jdtfr000000000000000000${i}` })),
    funding: source.kind === 'BALANCE' ? 'BALANCE' : 'DEPOSIT',
    depositInstructions: depositInstructionsFor(source, TRANSFER, sourceAmount, source.kind === 'CHAIN' ? '0xdeposit' : null),
    counterpartyId: null,
    isThirdParty: false,
    clientReferenceId: null,
    quoteId: null,
    remarks: null,
    metadata: {},
    agentId: null,
    parentTransferId: null,
    schedule: scheduleOf(destination, new Date(T0)),
    swiftRouting: null,
    sandboxTrigger: o.sandboxTrigger ?? null,
  }
}

const scoped = (now: string, over: { organizationId?: string; onBehalfOf?: string } = {}) => ({
  organizationId: over.organizationId ?? ORG,
  transferId: TRANSFER,
  now,
  ...(over.onBehalfOf === undefined ? {} : { onBehalfOf: over.onBehalfOf }),
})

const hashes = (prefix: string) => Object.fromEntries(CHAINS.map((chain) => [chain, `${prefix}-${chain}`]))

/** One set of tracking ids in their rails' formats (chain hashes are labels: the decider only copies them). */
export const POOL: TrackingPool = {
  uetr: uetr(),
  imad: imad(new Date(T0)),
  omad: omad(new Date(T0)),
  achTraceNumber: achTraceNumber(),
  txHash: { ...hashes('tx'), ETHEREUM: txHash('ETHEREUM'), SOLANA: txHash('SOLANA') },
  feeTxHash: hashes('feetx'),
}

export const HOLD = 'hld_01jdtfr0000000000000000001'
export const ORIGINATOR = {
  name: 'Ada Remitter',
  bankName: 'First Sandbox Bank',
  routingNumber: '021000021',
  accountNumber: '000123456789',
  swiftBic: null,
  bankCountry: 'US',
}

/** The commands, by name; `now` defaults to a moment after the last one. */
export const cmd = {
  create: (transfer: ReturnType<typeof plan>, now = T0): TransferCommand => ({ ...scoped(now), type: 'CreateTransfer', transfer }),
  submit: (now: string, over?: { organizationId?: string; onBehalfOf?: string }): TransferCommand => ({
    ...scoped(now, over),
    type: 'SubmitTransfer',
  }),
  cancel: (now: string, reason: string | null = 'changed my mind'): TransferCommand => ({ ...scoped(now), type: 'CancelTransfer', reason }),
  fundBalance: (now: string, holdId = HOLD, accountId: string = SIDES.usdBalance.accountId): TransferCommand => ({
    ...scoped(now),
    type: 'FundTransfer',
    method: 'BALANCE',
    accountId,
    holdId,
    fundingCustomerId: CUSTOMER,
    note: null,
    originator: null,
    tracking: {},
  }),
  fundDeposit: (now: string, originator: typeof ORIGINATOR | null = ORIGINATOR): TransferCommand => ({
    ...scoped(now),
    type: 'FundTransfer',
    method: 'DEPOSIT',
    accountId: null,
    holdId: null,
    fundingCustomerId: null,
    note: null,
    originator,
    tracking: { achTraceNumber: POOL.achTraceNumber },
  }),
  fail: (now: string, onlyIfUnfunded?: boolean): TransferCommand => ({
    ...scoped(now),
    type: 'FailTransfer',
    code: 'rail_down',
    reason: 'The rail is down',
    ...(onlyIfUnfunded === undefined ? {} : { onlyIfUnfunded }),
  }),
  advance: (now: string): TransferCommand => ({ ...scoped(now), type: 'AdvanceTransfer', mode: { by: 'operator' }, pool: POOL }),
  tick: (now: string, after: string): TransferCommand => ({
    ...scoped(now),
    type: 'AdvanceTransfer',
    mode: { by: 'timer', after },
    pool: POOL,
  }),
  assumeSwift: (now: string, legIndex: number): TransferCommand => ({ ...scoped(now), type: 'AssumeSwiftSettlement', legIndex }),
  /** The balance destination was credited (the transfer workflow's delivery). */
  deliver: (now: string): TransferCommand => ({ ...scoped(now), type: 'CompleteDelivery' }),
  /** `reclaimed`: a transfer into a balance has had its credit taken back first (the reverse route's step). */
  reverse: (now: string, reclaimed = true): TransferCommand => ({
    ...scoped(now),
    type: 'ReverseTransfer',
    code: 'R01',
    reason: 'returned',
    reclaimed,
  }),
  refund: (now: string, returnedToAccountId: string | null = null): TransferCommand => ({
    ...scoped(now),
    type: 'InitiateRefund',
    reason: 'returned to sender',
    refundTransferId: null,
    address: '0xrefund',
    externalAccountId: null,
    returnedToAccountId,
  }),
  /** A credit its money needed was refused: held in suspense. */
  suspend: (
    now: string,
    stage: 'DELIVERY' | 'RETURN' | 'REFUND' | 'RESOLUTION',
    from: 'clearing' | 'world' | 'mint' | null,
  ): TransferCommand => ({
    ...scoped(now),
    type: 'SuspendFunds',
    stage,
    code: 'destination_unavailable',
    reason: 'Held in suspense: the account is closed',
    from,
  }),
  /** An operator sends the held money to `accountId`, or (null) out of the service. */
  resolve: (now: string, accountId: string | null): TransferCommand => ({
    ...scoped(now),
    type: 'ResolveSuspense',
    accountId,
    reason: 'sent back by the operator',
  }),
  completeRefund: (now: string, hash: string | null = '0xrefundhash'): TransferCommand => ({
    ...scoped(now),
    type: 'CompleteRefund',
    txHash: hash,
  }),
}

/** Every event the decider decided for `commands`, in order from nothing, each checked against its schema. */
export function run(commands: TransferCommand[]): TransferEvent[] {
  let state = transferDecider.initialState()
  const events: TransferEvent[] = []
  for (const c of commands)
    for (const e of transferDecider.decide(c, state)) {
      transferEventSchemas[e.type].parse(e.data)
      events.push(e)
      state = transferDecider.evolve(state, e)
    }
  return events
}

export const fold = (events: TransferEvent[]): TransferState => events.reduce(transferDecider.evolve, transferDecider.initialState())

export function opened(events: TransferEvent[]): OpenTransferState {
  const state = fold(events)
  if (state.status === 'none') throw new Error('no transfer')
  return state
}

/** Throws what `decide` throws (a DomainError), or fails the test when it decides anything. */
export function refusal(t: Test, command: TransferCommand, state: TransferState): DomainError | undefined {
  try {
    const events = transferDecider.decide(command, state)
    t.fail(`expected a refusal, decided ${events.map((e) => e.type).join(', ') || 'nothing'}`)
    return undefined
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return error
  }
}

export type TransferCreatedPlan = Omit<TransferCreatedData, 'transferId' | 'organizationId' | 'at'>

/** An INTERNAL transfer between two USD balances, paid from the first one's balance. */
export const internalPlan = (o: PlanOptions = {}) => plan(SIDES.usdBalance, SIDES.otherUsdBalance, o)

export const AGENT = 'agt_01jdagent0000000000000000'
/** An agent's draft submitted over a limit: it waits for its owner's approval (PENDING_AUTHORIZATION) for a day. */
export const agentApprovalAsked: TransferCommand[] = [
  cmd.create({ ...internalPlan({ status: 'DRAFT' }), agentId: AGENT }),
  { ...scoped(at(1)), type: 'SubmitTransfer', agentApprovalExpiresAt: at(86_401) },
]
export const agentDecision = (now: string, decision: 'APPROVED' | 'DECLINED' | 'EXPIRED'): TransferCommand => ({
  ...scoped(now),
  type: 'DecideAgentApproval',
  decision,
  decidedBy: decision === 'EXPIRED' ? null : 'key_01jdowner0000000000000000',
  note: null,
})

/** The events that bring an INTERNAL transfer to `status`, each decided by the decider. */
export function eventsTo(status: TransferStatus): TransferEvent[] {
  const pending = [cmd.create(internalPlan())]
  const processing = [...pending, cmd.fundBalance(at(1))]
  const completed = [...processing, cmd.advance(at(2)), cmd.deliver(at(3))]
  switch (status) {
    case 'DRAFT':
      return run([cmd.create(internalPlan({ status: 'DRAFT' }))])
    case 'PENDING_AUTHORIZATION':
      return run(agentApprovalAsked)
    case 'PENDING':
      return run(pending)
    case 'PROCESSING':
      return run(processing)
    case 'IN_REVIEW':
      return run([...processing, cmd.fail(at(2))])
    case 'COMPLETED':
      return run(completed)
    case 'FAILED':
      return run([...pending, cmd.fail(at(1))])
    case 'CANCELLED':
      return run([...pending, cmd.cancel(at(1))])
    case 'REVERSED':
      return run([...completed, cmd.reverse(at(4))])
  }
}
