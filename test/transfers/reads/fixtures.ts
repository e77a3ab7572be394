// Transfers for the read tests, made through the command runtime (the transfer decider on each
// transfer's stream, projected by the app's own projectors): the write routes are another slice's.
// A transfer is planned from a few facts (its customers, accounts, counterparty, reference, flow)
// and moved to the status a test needs with the decider's own commands.
import type { TrackingPool } from '../../../domain/transfer/legTracking.js'
import { type TransferCommand, transferDecider } from '../../../domain/transfer/decider.js'
import type { Originator } from '../../../domain/transfer/events.js'
import type { TransferFlow } from '../../../domain/transfer/route.js'
import { newId } from '../../../domain/shared/ids.js'
import { streams } from '../../../events/streams.js'
import type { TestApp } from '../../harness/testApp.js'

type CreateTransfer = Extract<TransferCommand, { type: 'CreateTransfer' }>

export type TransferSpec = {
  customerId: string
  destinationCustomerId?: string | null
  sourceAccountId?: string | null
  destinationAccountId?: string | null
  counterpartyId?: string | null
  clientReferenceId?: string | null
  agentId?: string | null
  flow?: TransferFlow
  draft?: boolean
  remarks?: string
}

/** What the status a test asks for takes from a new PENDING transfer. */
export type Reached = 'DRAFT' | 'PENDING' | 'PROCESSING' | 'IN_REVIEW' | 'FAILED' | 'CANCELLED' | 'COMPLETED'

export const ORIGINATOR: Originator = {
  name: 'Reginald Remitter-Q9',
  bankName: 'First Sandbox Bank',
  routingNumber: '021000021',
  accountNumber: '7300955512345678',
  swiftBic: null,
  bankCountry: 'US',
}

const POOL: TrackingPool = {
  uetr: '8a562c67-ca16-48ba-b074-65581be6f011',
  imad: '20261124MMQFMP9Q000001',
  omad: '20261124MMQFMP9Q00000111241200FT03',
  achTraceNumber: '021000021234567',
  txHash: { ETHEREUM: '0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b' },
  feeTxHash: { ETHEREUM: '0x1fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8c' },
}

/** A USD balance to USD balance transfer (or the flow asked for) of 10.00 with the spec's facts. */
export function transferPlan(spec: TransferSpec): CreateTransfer['transfer'] {
  const side = { kind: 'BALANCE' as const, currency: 'USD', paymentRail: 'BALANCE', accountType: null, externalAccountId: null }
  return {
    customerId: spec.customerId,
    flow: spec.flow ?? 'INTERNAL',
    status: spec.draft ? 'DRAFT' : 'PENDING',
    createdBy: 'CALLER',
    heldByPlatform: false,
    source: { ...side, accountId: spec.sourceAccountId ?? null, fromAddress: null, refundAccountId: null, accountName: null },
    destination: {
      ...side,
      accountId: spec.destinationAccountId ?? null,
      toAddress: null,
      accountName: null,
      bankName: null,
      bankCountryCode: null,
      wireMessage: null,
      achReference: null,
      swiftReference: null,
      rtpReference: null,
      payoutReference: null,
      customerId: spec.destinationCustomerId ?? null,
    },
    sourceAmount: { currency: 'USD', amountMinor: '1000' },
    destinationAmount: { currency: 'USD', amountMinor: '1000' },
    fee: { fixedMinor: '0', percent: null, amountMinor: '0' },
    rate: { exchangeRate: '1', referenceRate: '1', referenceRateAsOf: '2026-11-24T10:00:00.000Z', referenceProvider: 'SANDBOX' },
    legs: [
      {
        id: newId('tleg'),
        type: 'BALANCE_DEBIT',
        inputCurrency: 'USD',
        outputCurrency: 'USD',
        inputRail: 'BALANCE',
        outputRail: 'BALANCE',
      },
      {
        id: newId('tleg'),
        type: 'BALANCE_CREDIT',
        inputCurrency: 'USD',
        outputCurrency: 'USD',
        inputRail: 'BALANCE',
        outputRail: 'BALANCE',
      },
    ],
    // Funded by a deposit: the funding workflow holds nothing for these test transfers.
    funding: 'DEPOSIT',
    depositInstructions: null,
    counterpartyId: spec.counterpartyId ?? null,
    isThirdParty: false,
    clientReferenceId: spec.clientReferenceId ?? null,
    quoteId: null,
    remarks: spec.remarks ?? null,
    metadata: {},
    agentId: spec.agentId ?? null,
    parentTransferId: null,
    schedule: { estimatedSettlementAt: null, nextCutoffAt: null, cutoffTimezone: null },
    swiftRouting: null,
    sandboxTrigger: null,
  }
}

type Move = Exclude<TransferCommand, { type: 'CreateTransfer' }>
/** A command as a test writes it: the organization and the time are filled in. */
type Unscoped<C> = C extends unknown ? Omit<C, 'organizationId' | 'now'> : never

/** Runs one command on a transfer and waits until the read model has it. */
export async function runTransferCommand(h: TestApp, organizationId: string, command: Unscoped<Move>): Promise<void> {
  const full = { ...command, organizationId, now: new Date().toISOString() } as Move
  const result = await h.runtime.commands.handle(transferDecider, streams.transfer(command.transferId), full, {
    organizationId,
    requestId: newId('req'),
    actor: 'test',
  })
  await h.runtime.runner.waitFor(result.position, 10_000)
}

/** Creates a transfer, moves it to `reached`, and waits until the read model shows it; its id. */
export async function seedTransfer(h: TestApp, organizationId: string, spec: TransferSpec, reached: Reached = 'PENDING'): Promise<string> {
  const transferId = newId('tfr')
  const created = await h.runtime.commands.handle(
    transferDecider,
    streams.transfer(transferId),
    {
      type: 'CreateTransfer',
      organizationId,
      transferId,
      now: new Date().toISOString(),
      transfer: transferPlan({ ...spec, draft: reached === 'DRAFT' }),
    },
    { organizationId, requestId: newId('req'), actor: 'test' },
    { newStream: true },
  )
  await h.runtime.runner.waitFor(created.position, 10_000)
  const run = (command: Parameters<typeof runTransferCommand>[2]) => runTransferCommand(h, organizationId, command)
  const fund = () =>
    run({
      type: 'FundTransfer',
      transferId,
      method: 'DEPOSIT',
      accountId: null,
      holdId: null,
      fundingCustomerId: spec.customerId,
      note: null,
      originator: ORIGINATOR,
      tracking: {},
    })
  switch (reached) {
    case 'DRAFT':
    case 'PENDING':
      break
    case 'FAILED':
      await run({ type: 'FailTransfer', transferId, code: 'rail_rejected', reason: 'rejected before funding' })
      break
    case 'CANCELLED':
      await run({ type: 'CancelTransfer', transferId, reason: null })
      break
    case 'PROCESSING':
      await fund()
      break
    case 'IN_REVIEW':
      await fund()
      // A failure after funds were received puts it in review, never FAILED.
      await run({ type: 'FailTransfer', transferId, code: 'compliance_review', reason: 'operational problem after funding' })
      break
    case 'COMPLETED':
      await fund()
      await run({ type: 'AdvanceTransfer', transferId, mode: { by: 'operator' }, pool: POOL })
      // The balance credit leg completes once its destination is credited: the transfer workflow does it when the
      // destination names an account (the wait above covered it); these plans may name none, so it is done here.
      await run({ type: 'CompleteDelivery', transferId })
      break
  }
  return transferId
}
