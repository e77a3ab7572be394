// Events of a transfer, version 1: one stream per transfer (`transfer-tfr_...`). TransferCreated
// carries the whole plan (sides, amounts, fee, rate, legs, funding, schedule), so a transfer reads
// from its own stream alone; the rest record each move of the status table (statuses.ts) and of
// the legs. The originator (a remitter's name and account number) is personal data: sensitive,
// sealed with the source customer's key (`data.customerId`, the descriptor's `dataSubject`).
import { z } from 'zod'
import { ledgerTransactionSchema } from '../ledger/index.js'
import { storedMetadataSchema } from '../shared/metadata.js'
import { sensitive } from '../shared/sensitive/index.js'
import { legTypeSchema, transferFlowSchema } from './route.js'
import { transferStatusSchema } from './statuses.js'

export const TRANSFER_EVENT_LIMITS = {
  maxLegs: 6,
  idMaxLength: 64,
  textMaxLength: 500,
  referenceMaxLength: 256,
  codeMaxLength: 64,
  addressMaxLength: 120,
} as const
const L = TRANSFER_EVENT_LIMITS

const id = z.string().min(1).max(L.idMaxLength)
const code = z.string().min(1).max(L.codeMaxLength)
const text = z.string().max(L.textMaxLength)
const minor = z.string().regex(/^\d{1,31}$/)
const at = z.string().max(40)

export const originatorSchema = z.object({
  name: sensitive(z.string().min(1).max(200)).nullable(),
  bankName: z.string().max(200).nullable(),
  routingNumber: z.string().max(34).nullable(),
  accountNumber: sensitive(z.string().min(1).max(34)).nullable(),
  swiftBic: z.string().max(11).nullable(),
  bankCountry: z.string().max(2).nullable(),
})
export type Originator = z.infer<typeof originatorSchema>

export const trackingSchema = z.object({
  uetr: z.string().max(64).nullable().optional(),
  imad: z.string().max(64).nullable().optional(),
  omad: z.string().max(64).nullable().optional(),
  achTraceNumber: z.string().max(32).nullable().optional(),
  txHash: z.string().max(160).nullable().optional(),
  feeTxHash: z.string().max(160).nullable().optional(),
})
export type Tracking = z.infer<typeof trackingSchema>

export const sideKindSchema = z.enum(['BALANCE', 'FIAT_RAIL', 'CHAIN'])

export const transferSourceSchema = z.object({
  kind: sideKindSchema,
  currency: code,
  paymentRail: code,
  accountId: id.nullable(),
  accountType: code.nullable(),
  externalAccountId: id.nullable(),
  fromAddress: z.string().max(L.addressMaxLength).nullable(),
  refundAccountId: id.nullable(),
  accountName: z.string().max(200).nullable(),
})

export const transferDestinationSchema = z.object({
  kind: sideKindSchema,
  currency: code,
  paymentRail: code,
  accountId: id.nullable(),
  accountType: code.nullable(),
  externalAccountId: id.nullable(),
  toAddress: z.string().max(L.addressMaxLength).nullable(),
  accountName: z.string().max(200).nullable(),
  bankName: z.string().max(200).nullable(),
  bankCountryCode: z.string().max(2).nullable(),
  wireMessage: z.string().max(L.referenceMaxLength).nullable(),
  achReference: z.string().max(L.referenceMaxLength).nullable(),
  swiftReference: z.string().max(L.referenceMaxLength).nullable(),
  rtpReference: z.string().max(L.referenceMaxLength).nullable(),
  payoutReference: z.string().max(L.referenceMaxLength).nullable(),
  /** The customer the destination account belongs to (the "either side" list filter). */
  customerId: id.nullable(),
})

export const plannedLegSchema = z.object({
  id,
  type: legTypeSchema,
  inputCurrency: code,
  outputCurrency: code,
  inputRail: code,
  outputRail: code,
})

export const depositInstructionsSchema = z.object({
  type: z.enum(['crypto', 'bank']),
  paymentRail: code,
  toAddress: z.string().max(L.addressMaxLength).nullable(),
  amount: z.object({ currency: code, amountMinor: minor }),
  blockchainMemo: z.string().max(L.referenceMaxLength).nullable(),
  accountId: id.nullable(),
  bankName: z.string().max(200).nullable(),
  routingNumber: z.string().max(34).nullable(),
  accountNumber: z.string().max(34).nullable(),
  iban: z.string().max(34).nullable(),
  swiftBic: z.string().max(11).nullable(),
  reference: z.string().max(L.referenceMaxLength).nullable(),
})

export const scheduleSchema = z.object({
  estimatedSettlementAt: at.nullable(),
  nextCutoffAt: at.nullable(),
  cutoffTimezone: z.string().max(64).nullable(),
})

const swiftStep = z.object({ label: z.string().max(100), bic: z.string().max(11), bankName: z.string().max(200), status: code })
export const swiftRoutingSchema = z.object({
  source: z.string().max(100),
  senderBic: z.string().max(11),
  receiverBic: z.string().max(11),
  checkedAt: at,
  steps: z.array(swiftStep).max(10),
})

export const TransferCreated = z.object({
  transferId: id,
  organizationId: id,
  /** The source customer; named customerId so the sealing key is the customer's (dataSubject 'customer'). */
  customerId: id,
  flow: transferFlowSchema,
  status: z.enum(['DRAFT', 'PENDING']),
  createdBy: z.enum(['CALLER', 'PLATFORM']),
  /** A platform-created draft is held in review: the caller cannot submit it. */
  heldByPlatform: z.boolean(),
  source: transferSourceSchema,
  destination: transferDestinationSchema,
  sourceAmount: z.object({ currency: code, amountMinor: minor }),
  destinationAmount: z.object({ currency: code, amountMinor: minor }),
  fee: z.object({ fixedMinor: minor, percent: z.string().max(20).nullable(), amountMinor: minor }),
  rate: z.object({
    exchangeRate: z.string().max(50),
    referenceRate: z.string().max(50),
    referenceRateAsOf: at,
    referenceProvider: z.string().max(50),
  }),
  legs: z.array(plannedLegSchema).min(2).max(L.maxLegs),
  /** BALANCE: a hold on `source.accountId` funds it; DEPOSIT: the customer sends funds (or a balance pays later). */
  funding: z.enum(['BALANCE', 'DEPOSIT']),
  depositInstructions: depositInstructionsSchema.nullable(),
  counterpartyId: id.nullable(),
  isThirdParty: z.boolean(),
  clientReferenceId: z.string().max(L.referenceMaxLength).nullable(),
  quoteId: id.nullable(),
  /** The APPROVED transfer draft (tdraft_) it was made from; absent on transfers made before drafts and without one. */
  draftId: id.optional(),
  remarks: text.nullable(),
  metadata: storedMetadataSchema,
  agentId: id.nullable(),
  parentTransferId: id.nullable(),
  schedule: scheduleSchema,
  swiftRouting: swiftRoutingSchema.nullable(),
  /** The sandbox trigger the amount selected (domain/rails/sandboxTriggers.ts), null in production. */
  sandboxTrigger: code.nullable(),
  /** A fixed route's sweep into a treasury wallet of a mintable sandbox token: delivered by minting (mint → wallet). Absent: false. */
  mintOnDelivery: z.boolean().optional(),
  /** The transfer view of the FX trade with the same id: it moves only as its trade does (fxTradeMirror.ts). Absent: false. */
  fxTrade: z.boolean().optional(),
  /** The remitter, when known at creation (a fixed route's sweep opens with its deposit). Absent: null. */
  originator: originatorSchema.nullable().optional(),
  at,
})

export const AGENT_APPROVAL_DECISIONS = ['APPROVED', 'DECLINED', 'EXPIRED'] as const
/** agentApprovalStatus: the spec's three and EXPIRED (ours: an owner who never answered is not a decline). */
export const AGENT_APPROVAL_STATUSES = ['PENDING', ...AGENT_APPROVAL_DECISIONS] as const

/**
 * `agentId` and `agentApprovalStatus` (as the event leaves it): set on every event of a transfer an
 * agent made, so each transfer.* payload carries them; absent otherwise.
 */
const ref = {
  transferId: id,
  organizationId: id,
  at,
  agentId: id.nullable().optional(),
  agentApprovalStatus: z.enum(AGENT_APPROVAL_STATUSES).nullable().optional(),
}

/** Events published as transfer.updated carry the remitter known so far (spec: Events rule 3). */
const seen = { customerId: id, originator: originatorSchema.nullable() }

/** PENDING_AUTHORIZATION: an agent's draft over a limit waits for its owner until `agentApprovalExpiresAt` (absent otherwise). */
export const TransferSubmitted = z.object({
  ...ref,
  ...seen,
  status: z.enum(['PENDING', 'PENDING_AUTHORIZATION']),
  agentApprovalExpiresAt: at.optional(),
})
/**
 * The owner's decision on an agent's transfer waiting in PENDING_AUTHORIZATION (or its expiry):
 * APPROVED moves it to PENDING; DECLINED and EXPIRED are followed by TransferCancelled.
 */
export const TransferAgentApprovalDecided = z.object({
  ...ref,
  ...seen,
  status: z.enum(['PENDING', 'PENDING_AUTHORIZATION']),
  decision: z.enum(AGENT_APPROVAL_DECISIONS),
  /** The key that decided (null: expired by the timer). */
  decidedBy: id.nullable(),
  note: text.nullable(),
})
export const TransferFunded = z.object({
  ...ref,
  /** The source customer: the remitter's identity is sealed with its key. */
  customerId: id,
  method: z.enum(['DEPOSIT', 'BALANCE']),
  /** The balance account holding the funds and its hold (BALANCE), null for a deposit. */
  accountId: id.nullable(),
  holdId: id.nullable(),
  fundingCustomerId: id.nullable(),
  note: text.nullable(),
  originator: originatorSchema.nullable(),
  tracking: trackingSchema,
})
export const TransferLegStarted = z.object({ ...ref, ...seen, index: z.number().int().min(0).max(L.maxLegs), tracking: trackingSchema })
export const TransferLegCompleted = z.object({ ...ref, ...seen, index: z.number().int().min(0).max(L.maxLegs), tracking: trackingSchema })
export const TransferHeldForReview = z.object({ ...ref, ...seen, code, reason: text })
export const TransferReviewCleared = z.object({
  ...ref,
  ...seen,
  /** Version 2: money held in suspense goes back to where the delivery takes it from (absent: none held). */
  transaction: ledgerTransactionSchema.nullable().optional(),
})

/** What could not land: a delivery, a reversal's or a refund's money coming back, or an operator's resolution. */
export const SUSPENSE_STAGES = ['DELIVERY', 'RETURN', 'REFUND', 'RESOLUTION'] as const
export type SuspenseStage = (typeof SUSPENSE_STAGES)[number]
/** Money that could not land is held in suspense (its transaction moves it there; null: it was there already). IN_REVIEW. */
export const TransferFundsSuspended = z.object({
  ...ref,
  ...seen,
  stage: z.enum(SUSPENSE_STAGES),
  code,
  reason: text,
  amount: z.object({ currency: code, amountMinor: minor }),
  transaction: ledgerTransactionSchema.nullable(),
})
/**
 * An operator sent held money on: to a balance account (credited from suspense by the workflow) or
 * out of the service (`accountId` null: its transaction, suspense to the world). REVERSED.
 */
export const TransferSuspenseResolved = z.object({
  ...ref,
  accountId: id.nullable(),
  reason: text,
  /** True when the transfer had not been reversed before (its first transfer.reversed). */
  firstReversal: z.boolean(),
  transaction: ledgerTransactionSchema.nullable(),
})
export const TransferCompleted = z.object({
  ...ref,
  systemRemark: text.nullable(),
  /** The developer fee of an externally funded transfer, kept from the flow of funds (world → fees). */
  transaction: ledgerTransactionSchema.nullable(),
})
export const TransferFailed = z.object({ ...ref, code, reason: text })
export const TransferCancelled = z.object({ ...ref, reason: text.nullable() })
export const TransferReversed = z.object({ ...ref, code, reason: text, returnedToAccountId: id.nullable() })
export const TransferRefundInitiated = z.object({
  ...ref,
  refundTransferId: id.nullable(),
  reason: text,
  amount: z.object({ currency: code, amountMinor: minor }),
  address: z.string().max(L.addressMaxLength).nullable(),
  /** The sender's bank account a fiat refund is paid to. */
  externalAccountId: id.nullable(),
  /** The balance account the money goes back to (a balance-funded transfer, or the source's refund account). */
  returnedToAccountId: id.nullable(),
})
export const TransferRefundCompleted = z.object({ ...ref, txHash: z.string().max(160).nullable() })

export const transferEventSchemas = {
  TransferCreated,
  TransferSubmitted,
  TransferAgentApprovalDecided,
  TransferFunded,
  TransferLegStarted,
  TransferLegCompleted,
  TransferHeldForReview,
  TransferReviewCleared,
  TransferCompleted,
  TransferFailed,
  TransferCancelled,
  TransferReversed,
  TransferRefundInitiated,
  TransferRefundCompleted,
  TransferFundsSuspended,
  TransferSuspenseResolved,
} as const

type Schemas = typeof transferEventSchemas
export type TransferEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type TransferCreatedData = z.infer<typeof TransferCreated>
export { transferStatusSchema }
