// The spec's Transfer resource, from a transfer's state: every field of the spec's table, null
// where it does not apply, money as the wire object with displayValue. What a command answers, GET
// shows and the read model stores. The originator's account number shows only its last four.
import { z } from 'zod'
import { last4 } from '../shared/sensitive/index.js'
import { type MoneyWire, moneyWire, toWire } from '../shared/money/index.js'
import { LEG_STATUSES, type OpenTransferState } from './state.js'
import { legTypeSchema, transferFlowSchema } from './route.js'
import { transferStatusSchema } from './statuses.js'

const nullableString = z.string().nullable()

const originatorWire = z
  .object({
    name: nullableString,
    bankName: nullableString,
    routingNumber: nullableString,
    accountNumber: nullableString.describe('Masked: the last four characters only'),
    swiftBic: nullableString,
    bankCountry: nullableString,
  })
  .nullable()
  .describe('Remitter identity, when the rail reported one')

/** How to fund what waits for a deposit (a transfer's, an FX trade's): a chain address, or a bank account and a reference. */
export const depositInstructionsResource = z.object({
  type: z.enum(['crypto', 'bank']),
  paymentRail: z.string(),
  toAddress: nullableString,
  amount: moneyWire,
  blockchainMemo: nullableString,
  accountId: nullableString,
  bankName: nullableString,
  routingNumber: nullableString,
  accountNumber: nullableString,
  iban: nullableString,
  swiftBic: nullableString,
  reference: nullableString.describe('Put it in the payment message: it is how a bank deposit is matched'),
})

const legWire = z.object({
  id: z.string().describe('Leg id (tleg_)'),
  sequence: z.number().int(),
  type: legTypeSchema,
  inputCurrency: z.string(),
  outputCurrency: z.string(),
  inputRail: z.string(),
  outputRail: z.string(),
  status: z.enum(LEG_STATUSES),
  startedAt: nullableString,
  completedAt: nullableString,
  uetr: nullableString,
  imad: nullableString,
  omad: nullableString,
  achTraceNumber: nullableString,
  txHash: nullableString,
  developerFee: moneyWire.nullable(),
  feeTxHash: nullableString,
})

export const transferResourceSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    sourceCustomerId: z.string(),
    flow: transferFlowSchema,
    status: transferStatusSchema,
    source: z.object({
      currency: z.string(),
      paymentRail: z.string(),
      fundingCurrency: z.string(),
      direction: z.literal('CREDIT'),
      accountId: nullableString,
      accountType: nullableString,
      externalAccountId: nullableString,
      fromAddress: nullableString,
      refundAccountId: nullableString,
      accountName: nullableString,
      originator: originatorWire,
    }),
    destination: z.object({
      currency: z.string(),
      paymentRail: z.string(),
      accountId: nullableString,
      accountType: nullableString,
      externalAccountId: nullableString,
      toAddress: nullableString,
      accountName: nullableString,
      bankName: nullableString,
      bankCountryCode: nullableString,
      wireMessage: nullableString,
      achReference: nullableString,
      swiftReference: nullableString,
      rtpReference: nullableString,
      payoutReference: nullableString,
    }),
    sourceAmount: moneyWire,
    destinationAmount: moneyWire,
    createdAt: z.string(),
    updatedAt: z.string(),
    legs: z.array(legWire),
    fundingNeeded: z.boolean(),
    clientReferenceId: nullableString,
    counterpartyId: nullableString,
    agentId: nullableString,
    agentApprovalStatus: z.enum(['PENDING', 'APPROVED', 'DECLINED']).nullable(),
    refund: z
      .object({
        status: z.enum(['PENDING', 'COMPLETED']),
        reason: z.string(),
        amount: moneyWire,
        address: nullableString,
        txHash: nullableString,
        initiatedAt: z.string(),
        completedAt: nullableString,
      })
      .nullable(),
    quoteId: nullableString,
    draftId: nullableString.describe('The transfer draft (tdraft_) it was made from, or null'),
    exchangeRate: nullableString.describe('destinationAmount = floor(sourceAmount × exchangeRate), on minor units, fees included'),
    referenceRate: nullableString.describe('Destination major units per source major unit, before fees'),
    referenceRateAsOf: nullableString,
    referenceProvider: nullableString,
    developerFeeFixed: nullableString,
    developerFeePercent: z.number().nullable(),
    developerFee: z.object({ amount: moneyWire, fixed: nullableString, percent: z.number().nullable(), txHash: nullableString }).nullable(),
    depositInstructions: depositInstructionsResource.nullable(),
    returnedToAccountId: nullableString,
    returnedAt: nullableString,
    currentLegIndex: z.number().int(),
    isThirdParty: z.boolean(),
    remarks: nullableString,
    internalRemarks: nullableString,
    uetr: nullableString,
    imad: nullableString,
    omad: nullableString,
    achTraceNumber: nullableString,
    txHash: nullableString,
    originatingAccount: z.object({ bankName: nullableString, routingNumber: nullableString, accountNumber: nullableString }).nullable(),
    systemRemark: nullableString,
    failureReason: z.object({ code: z.string(), message: z.string() }).nullable().describe('Why it failed, was reviewed or reversed'),
    metadata: z.record(z.string(), z.unknown()),
    estimatedSettlementAt: nullableString,
    nextCutoffAt: nullableString,
    cutoffTimezone: nullableString,
    counterparty: z.unknown().optional().describe('Present when expanded'),
    sourceAccount: z.unknown().optional().describe('Present when expanded'),
    destinationAccount: z.unknown().optional().describe('Present when expanded'),
    sourceCustomer: z.unknown().optional().describe('Present when expanded'),
    documents: z.array(z.unknown()).optional().describe('Present when expanded'),
  })
  .describe('A transfer')

export type TransferResource = z.infer<typeof transferResourceSchema>

const wire = (m: { currency: string; amountMinor: string }): MoneyWire =>
  toWire({ currency: m.currency, amountMinor: BigInt(m.amountMinor) })

/** The last non-null value of a tracking field across the legs (the payout's wins). */
function latest(state: OpenTransferState, field: 'uetr' | 'imad' | 'omad' | 'achTraceNumber' | 'txHash'): string | null {
  for (let i = state.legs.length - 1; i >= 0; i--) {
    const value = state.legs[i]!.tracking[field]
    if (value) return value
  }
  return null
}

export function toTransferResource(state: OpenTransferState): TransferResource {
  const c = state.created
  const fee = BigInt(c.fee.amountMinor)
  const feeMoney = wire({ currency: c.sourceAmount.currency, amountMinor: c.fee.amountMinor })
  const originator = state.funding?.originator ?? null
  const maskedOriginator = originator && {
    ...originator,
    accountNumber: originator.accountNumber === null ? null : last4(originator.accountNumber),
  }
  const feeHash = state.legs.find((leg) => leg.tracking.feeTxHash)?.tracking.feeTxHash ?? null
  const problem = state.failure ?? state.review ?? state.reversal
  const percent = c.fee.percent === null ? null : Number(c.fee.percent)
  return {
    id: c.transferId,
    organizationId: c.organizationId,
    sourceCustomerId: c.customerId,
    flow: c.flow,
    status: state.status,
    source: {
      currency: c.source.currency,
      paymentRail: c.source.paymentRail,
      fundingCurrency: c.source.currency,
      direction: 'CREDIT',
      accountId: c.source.accountId ?? state.funding?.accountId ?? null,
      accountType: c.source.accountType,
      externalAccountId: c.source.externalAccountId,
      fromAddress: c.source.fromAddress,
      refundAccountId: c.source.refundAccountId,
      accountName: c.source.accountName,
      originator: maskedOriginator,
    },
    destination: {
      currency: c.destination.currency,
      paymentRail: c.destination.paymentRail,
      accountId: c.destination.accountId,
      accountType: c.destination.accountType,
      externalAccountId: c.destination.externalAccountId,
      toAddress: c.destination.toAddress,
      accountName: c.destination.accountName,
      bankName: c.destination.bankName,
      bankCountryCode: c.destination.bankCountryCode,
      wireMessage: c.destination.wireMessage,
      achReference: c.destination.achReference,
      swiftReference: c.destination.swiftReference,
      rtpReference: c.destination.rtpReference,
      payoutReference: c.destination.payoutReference,
    },
    sourceAmount: wire(c.sourceAmount),
    destinationAmount: wire(c.destinationAmount),
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    legs: state.legs.map((leg, sequence) => ({
      id: leg.id,
      sequence,
      type: leg.type,
      inputCurrency: leg.inputCurrency,
      outputCurrency: leg.outputCurrency,
      inputRail: leg.inputRail,
      outputRail: leg.outputRail,
      status: leg.status,
      startedAt: leg.startedAt,
      completedAt: leg.completedAt,
      uetr: leg.tracking.uetr ?? null,
      imad: leg.tracking.imad ?? null,
      omad: leg.tracking.omad ?? null,
      achTraceNumber: leg.tracking.achTraceNumber ?? null,
      txHash: leg.tracking.txHash ?? null,
      // The fee is withheld on the first leg, in the source currency.
      developerFee: sequence === 0 && fee > 0n ? feeMoney : null,
      feeTxHash: leg.tracking.feeTxHash ?? null,
    })),
    // A draft shows where its deposit will go, but waits for its submit first.
    fundingNeeded: c.funding === 'DEPOSIT' && state.funding === null && state.status === 'PENDING',
    clientReferenceId: c.clientReferenceId,
    counterpartyId: c.counterpartyId,
    agentId: c.agentId,
    agentApprovalStatus: null,
    refund: state.refund && {
      status: state.refund.status,
      reason: state.refund.reason,
      amount: wire(state.refund.amount),
      address: state.refund.address,
      txHash: state.refund.txHash,
      initiatedAt: state.refund.initiatedAt,
      completedAt: state.refund.completedAt,
    },
    quoteId: c.quoteId,
    draftId: c.draftId ?? null,
    exchangeRate: c.rate.exchangeRate,
    referenceRate: c.rate.referenceRate,
    referenceRateAsOf: c.rate.referenceRateAsOf,
    referenceProvider: c.rate.referenceProvider,
    developerFeeFixed: c.fee.fixedMinor === '0' && c.fee.percent === null ? null : c.fee.fixedMinor,
    developerFeePercent: percent,
    developerFee: fee > 0n ? { amount: feeMoney, fixed: c.fee.fixedMinor, percent, txHash: feeHash } : null,
    depositInstructions: c.depositInstructions && { ...c.depositInstructions, amount: wire(c.depositInstructions.amount) },
    returnedToAccountId: state.returnedToAccountId,
    returnedAt: state.returnedAt,
    currentLegIndex: state.currentLegIndex,
    isThirdParty: c.isThirdParty,
    remarks: c.remarks,
    internalRemarks: null,
    uetr: latest(state, 'uetr'),
    imad: latest(state, 'imad'),
    omad: latest(state, 'omad'),
    achTraceNumber: latest(state, 'achTraceNumber'),
    txHash: latest(state, 'txHash'),
    originatingAccount: originator && {
      bankName: originator.bankName,
      routingNumber: originator.routingNumber,
      accountNumber: maskedOriginator!.accountNumber,
    },
    systemRemark: state.systemRemark,
    failureReason: problem && { code: problem.code, message: problem.reason },
    metadata: { ...c.metadata, ...(c.swiftRouting ? { swiftRouting: c.swiftRouting } : {}) },
    estimatedSettlementAt: c.schedule.estimatedSettlementAt,
    nextCutoffAt: c.schedule.nextCutoffAt,
    cutoffTimezone: c.schedule.cutoffTimezone,
  }
}
