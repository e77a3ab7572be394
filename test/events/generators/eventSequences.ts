// Event sequences a projector can take: a lone event of most types needs its stream's earlier events
// (an account's funds event its opening and the money it moves, a session's events the session), as
// the domain always appends them. Each registered type says what comes before it and which ids it
// shares with them; the event under test keeps its generated (largest or random) values otherwise.
// Where the domain keeps a rule the event schema does not state (a funds event posts to its own
// account, in one currency, within what the account holds; a facility never lends past its credit
// limit), the sequence follows the domain, and the rule is listed in docs/decisions.md as a gap.
import fc from 'fast-check'
import { LEDGER_TRANSACTION_LIMITS } from '../../../domain/ledger/index.js'
import { type EventData, eventValuesOf } from './eventValues.js'
import { idOf } from './fieldHints.js'

export type SequencedEvent = { type: string; data: EventData }

/** What comes before an event of a type: the earlier events' types, then how the whole is made coherent. */
type Setup = {
  given: readonly string[]
  /** The sequence from the event under test and one generated event of each `given` type (in order). */
  build?: (event: EventData, given: readonly EventData[]) => SequencedEvent[]
  /** Ids the event shares with each earlier event, by field name (when there is no `build`). */
  shares?: readonly string[]
}

/** A copy of `target` with the named fields of `source`, where both have them. */
function sharing(target: EventData, source: EventData, keys: readonly string[]): EventData {
  const out = { ...target }
  for (const key of keys) if (key in out && key in source) out[key] = source[key]
  return out
}

const alone: Setup = { given: [] }
const after = (given: readonly string[], shares: readonly string[]): Setup => ({ given, shares })

// ---- Funds: a balance account's money, coherent as the ledger writes it ----------------------
/** A real account id (the ledger account names of the schema need one: `available:<id>`). */
const FUNDS_ACCOUNT_ID = idOf('acc', 3)

type Movement = { from: string; to: string }
const available = `available:${FUNDS_ACCOUNT_ID}`
const committed = `committed:${FUNDS_ACCOUNT_ID}`
const MOVEMENTS: Readonly<Record<string, Movement>> = {
  FundsCredited: { from: 'world', to: available },
  FundsHeld: { from: available, to: committed },
  HoldSettled: { from: committed, to: 'clearing' },
  HoldReleased: { from: committed, to: available },
  CreditReversed: { from: available, to: 'world' },
}

type Posting = { ledgerAccount: string; currency: string; amountMinor: string }
type Transaction = { id: string; kind: string; postings: Posting[]; description: string }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function transactionOf(data: EventData): Transaction {
  const tx = data.transaction
  if (!isRecord(tx) || !Array.isArray(tx.postings)) throw new Error('a funds event without its transaction')
  const postings = tx.postings.filter(isRecord).map((p) => ({
    ledgerAccount: String(p.ledgerAccount),
    currency: String(p.currency),
    amountMinor: String(p.amountMinor),
  }))
  return { id: String(tx.id), kind: String(tx.kind), postings, description: String(tx.description) }
}

const absolute = (amount: string) => (amount.startsWith('-') ? BigInt(amount.slice(1)) : BigInt(amount))

/**
 * The generated postings rewritten as the movement of `type` (as many postings, the same amounts,
 * one currency, balanced): a posting of the pair i takes `a_i` from `from`, the next gives it to `to`;
 * an odd last posting splits the last amount in two.
 */
function moved(type: string, tx: Transaction): { tx: Transaction; total: bigint } {
  const movement = MOVEMENTS[type]
  if (!movement) throw new Error(`${type} is not a funds event`)
  const currency = tx.postings[0]?.currency ?? 'USD'
  const amounts = tx.postings.map((p) => absolute(p.amountMinor)).map((a) => (a < 2n ? 2n : a))
  const postings: Posting[] = []
  let total = 0n
  for (let i = 0; i + 1 < amounts.length; i += 2) {
    const amount = amounts[i] ?? 2n
    total += amount
    const odd = i + 3 === amounts.length
    postings.push({ ledgerAccount: movement.from, currency, amountMinor: (-amount).toString() })
    if (odd) {
      postings.push({ ledgerAccount: movement.to, currency, amountMinor: (amount - 1n).toString() })
      postings.push({ ledgerAccount: movement.to, currency, amountMinor: '1' })
    } else postings.push({ ledgerAccount: movement.to, currency, amountMinor: amount.toString() })
  }
  return { tx: { ...tx, postings }, total }
}

/** A funding event of the account: `total` moved by `type`'s movement, in pairs of at most the ledger's largest amount. */
function funding(type: string, template: EventData, total: bigint, currency: string, extra: EventData): SequencedEvent {
  const movement = MOVEMENTS[type]
  if (!movement) throw new Error(`${type} is not a funds event`)
  const postings: Posting[] = []
  for (let left = total; left > 0n;) {
    const amount = left > LEDGER_TRANSACTION_LIMITS.maxAbsAmountMinor ? LEDGER_TRANSACTION_LIMITS.maxAbsAmountMinor : left
    postings.push({ ledgerAccount: movement.from, currency, amountMinor: (-amount).toString() })
    postings.push({ ledgerAccount: movement.to, currency, amountMinor: amount.toString() })
    left -= amount
  }
  const tx: Transaction = { id: `funding-${type}`, kind: type === 'FundsHeld' ? 'HOLD' : 'CREDIT', postings, description: 'funding' }
  return { type, data: { ...template, ...extra, accountId: FUNDS_ACCOUNT_ID, transaction: tx } }
}

/** An account opened to hold a balance in `currency`, then funded so the event under test leaves nothing negative. */
function fundsSetup(type: string): Setup {
  const takesAvailable = type === 'FundsHeld' || type === 'CreditReversed'
  const takesCommitted = type === 'HoldSettled' || type === 'HoldReleased'
  return {
    given: ['AccountOpened', 'FundsCredited', 'FundsHeld'],
    build: (event, [opened = {}, credited = {}, held = {}]) => {
      const { tx, total } = moved(type, transactionOf(event))
      const currency = tx.postings[0]?.currency ?? 'USD'
      const codes = Array.isArray(opened.currencyCodes) ? opened.currencyCodes.slice(1) : []
      const account = { ...opened, accountId: FUNDS_ACCOUNT_ID, holdsBalance: true, currencyCodes: [currency, ...codes] }
      const holdId = typeof event.holdId === 'string' ? event.holdId : idOf('hld', 1)
      const sequence: SequencedEvent[] = [{ type: 'AccountOpened', data: account }]
      if (takesAvailable || takesCommitted) sequence.push(funding('FundsCredited', credited, total, currency, {}))
      if (takesCommitted) sequence.push(funding('FundsHeld', held, total, currency, { holdId }))
      sequence.push({ type, data: { ...event, accountId: FUNDS_ACCOUNT_ID, transaction: tx } })
      return sequence
    },
  }
}

// ---- The credit line: draws within the domain's largest credit limit --------------------------
type Allocation = { drawId: string; feeMinor: string; principalMinor: string; closesDraw: boolean }

function allocationsOf(data: EventData): Allocation[] {
  const list = Array.isArray(data.allocations) ? data.allocations.filter(isRecord) : []
  return list.map((a) => ({
    drawId: String(a.drawId),
    feeMinor: String(a.feeMinor),
    principalMinor: String(a.principalMinor),
    closesDraw: a.closesDraw === true,
  }))
}

/**
 * What a facility has lent in all, at most: its credit limit is an amount, and no amount passes the
 * ledger's bound on one movement (10^30 minor units). The schema's 40 digits a draw, times 1 000
 * draws, would be more than the read model's `borrowed` (numeric(40, 0)) holds; the domain never lends it.
 */
const MAX_LENT_MINOR = LEDGER_TRANSACTION_LIMITS.maxAbsAmountMinor

/**
 * A repayment after its draws: one DrawTaken per allocation (distinct draws, as the domain allocates
 * them), the principals together within MAX_LENT_MINOR.
 */
const repaymentSetup: Setup = {
  given: ['LiquidityFacilityConfigured', 'DrawTaken'],
  build: (event, [configured = {}, draw = {}]) => {
    const allocations = allocationsOf(event)
    const share = MAX_LENT_MINOR / BigInt(Math.max(1, allocations.length))
    const seen = new Set<string>()
    const fitted = allocations.map((a, i) => {
      const drawId = seen.has(a.drawId) ? idOf('drw', 1_000 + i) : a.drawId
      seen.add(drawId)
      const principal = BigInt(a.principalMinor) > share ? share : BigInt(a.principalMinor)
      return { ...a, drawId, principalMinor: principal.toString() }
    })
    const organizationId = event.organizationId
    const draws = fitted.map((a) => ({
      type: 'DrawTaken',
      data: { ...draw, organizationId, drawId: a.drawId, amountMinor: (BigInt(a.principalMinor) + 1n).toString() },
    }))
    return [
      { type: 'LiquidityFacilityConfigured', data: { ...configured, organizationId } },
      ...draws,
      { type: 'RepaymentReceived', data: { ...event, allocations: fitted } },
    ]
  },
}

// ---- Rules the domain keeps that the event schemas do not state --------------------------------
const FIXED_ROUTE_KINDS = new Set(['VIRTUAL_BANK', 'DEPOSIT_WALLET'])

/** Each event as the domain writes it, where its schema allows more (each rule is a gap in docs/decisions.md). */
const EVENT_RULES: Readonly<Record<string, (data: EventData) => EventData>> = {
  // A fixed route always has its customer (the route is created under one; its coordinates are sealed with its key).
  AccountOpened: (data) =>
    isRecord(data.details) && FIXED_ROUTE_KINDS.has(String(data.details.kind)) && data.customerId === null
      ? { ...data, customerId: idOf('cus', 7) }
      : data,
  // A draw is at least one minor unit (the schema's regex takes "0").
  DrawTaken: (data) => (data.amountMinor === '0' ? { ...data, amountMinor: '1' } : data),
}

/** A facility never lends past its credit limit: the limit configured covers what the sequence draws. */
function withinCreditLimit(sequence: SequencedEvent[]): SequencedEvent[] {
  const drawn = sequence.filter((e) => e.type === 'DrawTaken').reduce((sum, e) => sum + BigInt(String(e.data.amountMinor)), 0n)
  return sequence.map((e) => {
    if (e.type !== 'LiquidityFacilityConfigured' || BigInt(String(e.data.creditLimitMinor)) >= drawn) return e
    return { ...e, data: { ...e.data, creditLimitMinor: drawn.toString() } }
  })
}

/** The sequence with the domain's rules applied to each event, then to the whole. */
function coherent(sequence: SequencedEvent[]): SequencedEvent[] {
  return withinCreditLimit(sequence.map((e) => ({ ...e, data: EVENT_RULES[e.type]?.(e.data) ?? e.data })))
}

// ---- Every registered type ---------------------------------------------------------------------
const customer = after(['CustomerCreated'], ['customerId'])
const session = after(['CustomerCreated', 'VerificationSessionCreated'], ['customerId', 'sessionId', 'associatedEntityId'])
const account = after(['AccountOpened'], ['accountId', 'organizationId', 'customerId'])
const TRANSFER_IDS = ['transferId', 'organizationId', 'customerId']
const transfer = after(['TransferCreated'], TRANSFER_IDS)
const endpoint = after(['WebhookEndpointCreated'], ['endpointId', 'organizationId'])
const FX_TRADE_IDS = ['tradeId', 'organizationId', 'customerId', 'quoteId']
const fxTrade = after(['FxTradeCreated'], FX_TRADE_IDS)
const agent = after(['AgentCreated'], ['agentId', 'organizationId'])
const TRANSFER_DRAFT_IDS = ['draftId', 'organizationId', 'customerId']
/** An agent approval is decided only after the submit that asked for it (the domain's order). */
const agentApprovalDecided: Setup = {
  given: ['TransferCreated', 'TransferSubmitted'],
  build: (event, [created = {}, submitted = {}]) => [
    { type: 'TransferCreated', data: sharing(created, event, TRANSFER_IDS) },
    {
      type: 'TransferSubmitted',
      data: { ...sharing(submitted, event, TRANSFER_IDS), status: 'PENDING_AUTHORIZATION', agentApprovalExpiresAt: event.at },
    },
    { type: 'TransferAgentApprovalDecided', data: event },
  ],
}
const transferDraft = after(['TransferDraftRegistered'], TRANSFER_DRAFT_IDS)
const INVOICE_IDS = ['invoiceId', 'organizationId', 'customerId']
const invoice = after(['InvoiceCreated'], INVOICE_IDS)
const openInvoice = after(['InvoiceCreated', 'InvoiceFinalized'], INVOICE_IDS)

/** How each registered type is given to a projector. A type missing here fails the coverage test. */
export const SEQUENCES: Readonly<Record<string, Setup>> = {
  OrganizationCreated: alone,
  ApiKeyCreated: after(['OrganizationCreated'], ['organizationId']),
  ApiKeyRevoked: after(['OrganizationCreated', 'ApiKeyCreated'], ['organizationId', 'keyId']),
  WebhookEndpointCreated: alone,
  WebhookEndpointUpdated: endpoint,
  WebhookEndpointSecretRotated: endpoint,
  WebhookEndpointDeleted: endpoint,
  WebhookTestRequested: endpoint,
  CustomerCreated: alone,
  IndividualVerificationSaved: customer,
  BusinessVerificationSaved: customer,
  TermsAccepted: customer,
  CustomerSubmitted: customer,
  CustomerReviewed: customer,
  CustomerVerified: customer,
  CustomerArchived: customer,
  CustomerDeleted: customer,
  CustomerDataErased: customer,
  AssociatedEntityAdded: customer,
  AssociatedEntityUpdated: after(['CustomerCreated', 'AssociatedEntityAdded'], ['customerId', 'entityId']),
  VerificationSessionCreated: customer,
  VerificationLinkSent: session,
  VerificationSessionSubmitted: session,
  VerificationSessionCompleted: session,
  VerificationSessionFailed: session,
  VerificationSessionExpired: session,
  DocumentUploaded: alone,
  TermsAgreementGenerated: alone,
  AccountOpened: alone,
  AccountActivated: account,
  AccountClosed: account,
  AccountMetadataUpdated: account,
  FixedRouteDisabled: account,
  FixedRouteEnabled: account,
  FixedRouteDepositReceived: account,
  FundsCredited: fundsSetup('FundsCredited'),
  FundsHeld: fundsSetup('FundsHeld'),
  HoldSettled: fundsSetup('HoldSettled'),
  HoldReleased: fundsSetup('HoldReleased'),
  CreditReversed: fundsSetup('CreditReversed'),
  CounterpartyCreated: alone,
  CounterpartyDeleted: after(['CounterpartyCreated'], ['counterpartyId']),
  MatchClaimed: alone,
  LiquidityFacilityConfigured: alone,
  PayoutTreasurySet: alone,
  DrawTaken: after(['LiquidityFacilityConfigured'], ['organizationId']),
  RepaymentReceived: repaymentSetup,
  DrawFailed: after(['LiquidityFacilityConfigured', 'DrawTaken'], ['organizationId', 'drawId']),
  FxSettingsConfigured: alone,
  FxCustomerPricingSet: alone,
  FxSandboxProviderConfigured: alone,
  FxCapacityReserved: alone,
  FxQuoteCreated: alone,
  FxQuoteAccepted: after(['FxQuoteCreated'], ['quoteId', 'organizationId']),
  FxQuoteExpired: after(['FxQuoteCreated'], ['quoteId', 'organizationId', 'customerId']),
  FxTradeCreated: alone,
  FxTradeWalletApproved: fxTrade,
  FxTradeDepositReceived: fxTrade,
  FxTradeDepositSettled: fxTrade,
  FxTradeConverted: fxTrade,
  FxTradePayoutRequested: fxTrade,
  FxTradePaidOut: after(['FxTradeCreated', 'FxTradePayoutRequested'], FX_TRADE_IDS),
  FxTradeCompleted: fxTrade,
  FxTradeExpired: fxTrade,
  FxTradeFailed: fxTrade,
  FxTradeRefunded: fxTrade,
  AgentsFeatureSet: after(['OrganizationCreated'], ['organizationId']),
  AgentCreated: alone,
  AgentUpdated: agent,
  AgentPaused: agent,
  AgentResumed: agent,
  AgentRevoked: agent,
  AgentKeyIssued: agent,
  AgentKeyRevoked: after(['AgentCreated', 'AgentKeyIssued'], ['agentId', 'organizationId', 'keyId']),
  AgentSpendReserved: alone,
  AgentSpendDenied: alone,
  AgentLimitReached: alone,
  AgentSpendReleased: after(['AgentSpendReserved'], ['agentId', 'organizationId', 'transferId', 'currency']),
  FxTradeSlotClaimed: alone,
  FxTradeSlotReleased: alone,
  TransferCreated: alone,
  TransferSubmitted: transfer,
  TransferFunded: transfer,
  TransferLegStarted: transfer,
  TransferLegCompleted: transfer,
  TransferHeldForReview: transfer,
  TransferReviewCleared: transfer,
  TransferCompleted: transfer,
  TransferFailed: transfer,
  TransferCancelled: transfer,
  TransferReversed: transfer,
  TransferRefundInitiated: transfer,
  TransferRefundCompleted: after(['TransferCreated', 'TransferRefundInitiated'], TRANSFER_IDS),
  TransferFundsSuspended: transfer,
  TransferAgentApprovalDecided: agentApprovalDecided,
  TransferSuspenseResolved: after(['TransferCreated', 'TransferFundsSuspended'], TRANSFER_IDS),
  TransferDraftRegistered: alone,
  TransferDraftScreeningStarted: transferDraft,
  TransferDraftApproved: transferDraft,
  TransferDraftRejected: transferDraft,
  // Only an APPROVED draft is used: the domain's order.
  TransferDraftUsed: after(['TransferDraftRegistered', 'TransferDraftScreeningStarted', 'TransferDraftApproved'], TRANSFER_DRAFT_IDS),
  InvoiceCreated: alone,
  // Only a DRAFT changes or goes; payments, sends, cancellation and the overdue mark follow finalizing: the domain's order.
  InvoiceUpdated: invoice,
  InvoiceDeleted: invoice,
  InvoiceFinalized: invoice,
  InvoiceSent: openInvoice,
  InvoicePaymentApplied: openInvoice,
  InvoicePaid: openInvoice,
  InvoiceCancelled: openInvoice,
  InvoiceMarkedOverdue: openInvoice,
}

function setupOf(type: string): Setup {
  const setup = SEQUENCES[type]
  if (!setup) throw new Error(`${type} has no sequence in test/events/generators/eventSequences.ts`)
  return setup
}

function assemble(type: string, setup: Setup, event: EventData, given: readonly EventData[]): SequencedEvent[] {
  if (setup.build) return coherent(setup.build(event, given))
  const shares = setup.shares ?? []
  // The earlier events take the ids the event under test has (it is the one generated at its largest).
  const earlier = setup.given.map((givenType, i) => ({ type: givenType, data: sharing(given[i] ?? {}, event, shares) }))
  return coherent([...earlier, { type, data: event }])
}

/** The sequences ending in each largest instance of `type` (its variants; the earlier events at the same variant). */
export function largestSequences(type: string): SequencedEvent[][] {
  const setup = setupOf(type)
  return eventValuesOf(type).largest.map((event, variant) => {
    const given = setup.given.map((g) => {
      const largest = eventValuesOf(g).largest
      return largest[variant % largest.length] ?? {}
    })
    return assemble(type, setup, event, given)
  })
}

/** Random sequences ending in a random instance of `type`. */
export function arbitrarySequence(type: string): fc.Arbitrary<SequencedEvent[]> {
  const setup = setupOf(type)
  const given: fc.Arbitrary<EventData[]> = fc.tuple(...setup.given.map((g) => eventValuesOf(g).arbitrary))
  return fc.tuple(eventValuesOf(type).arbitrary, given).map(([event, earlier]) => assemble(type, setup, event, earlier))
}
