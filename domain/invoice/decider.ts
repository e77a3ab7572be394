// The invoice aggregate's decisions (issue 28): the lifecycle of statuses.ts, the payment state of
// paymentState.ts, and the matching of deposits. Pure: the route loads the payee's facts, draws the id
// and passes `now`.
// - Idempotent where a retry or a timer may repeat a command: finalizing an OPEN invoice, cancelling a
//   CANCELLED one, deleting a deleted draft, marking overdue twice, and the same deposit reference
//   applied again decide nothing.
// - A payment the invoice cannot take (it is not OPEN, does not exist, is in another currency, or has
//   taken its last payment) is refused with one code, 409 invoice_not_payable, rather than deciding
//   nothing: nothing already means "this deposit was applied before", and confusing the two would either
//   count a deposit twice or lose one. The caller catches the code and credits the customer's balance.
import type { Decider } from '../decider.js'
import { DomainError, invalid, notFound } from '../errors.js'
import { assertAmountsWithinBound } from '../shared/money/index.js'
import { dueDateProblems, isPastDue, overdueFrom } from './dueDate.js'
import { INVOICE_CONTENT_FIELDS, type InvoiceContent, type InvoiceEvent, type PaymentSource } from './events.js'
import { type CreateInvoiceBody, INVOICE_LIMITS, type UpdateInvoiceBody } from './invoiceBody.js'
import { type PayeeFacts, payeeAccount } from './payee.js'
import { paymentReferenceOf } from './paymentReference.js'
import { paymentAmounts, splitPayment } from './paymentState.js'
import { type ExistingInvoice, type InvoiceState, evolve } from './state.js'
import { assertEditable, assertMove, invalidTransition } from './statuses.js'
import { computeTotals } from './totals.js'

export const INVOICE_DECIDER_LIMITS = {
  /** Payments one invoice takes; past it a deposit goes to the balance (the list of deposit references stays bounded). */
  maxPayments: 100,
  /** Sends of one invoice, the first included. */
  maxSends: INVOICE_LIMITS.maxSends,
  /**
   * Characters of a deposit's reference (a rail's transaction id, a simulation's key, a sweep's tfr_ id): the balance
   * credit's cause names the invoice and the reference (`invoice-unmatched:<inv_ id>:<reference>`) within the ledger's 100.
   */
  depositReferenceMaxLength: 40,
} as const

type Scoped = { organizationId: string; invoiceId: string; now: string }

export type InvoiceCommand =
  | (Scoped & { type: 'CreateInvoice'; body: CreateInvoiceBody; payee: PayeeFacts })
  | (Scoped & { type: 'UpdateInvoice'; changes: UpdateInvoiceBody })
  | (Scoped & { type: 'DeleteInvoice' })
  | (Scoped & { type: 'FinalizeInvoice' })
  | (Scoped & { type: 'SendInvoice' })
  | (Scoped & { type: 'CancelInvoice'; reason: string | null })
  | (Scoped & {
      type: 'ApplyInvoicePayment'
      currency: string
      amountMinor: string
      depositReference: string
      source: PaymentSource
    })
  | (Scoped & { type: 'MarkInvoiceOverdue' })

export const INVOICE_NOT_PAYABLE = 'invoice_not_payable'

/** The refusal the caller routes to the customer's balance instead of the invoice. */
export const notPayable = (invoiceId: string, why: string) =>
  new DomainError('conflict', INVOICE_NOT_PAYABLE, `Invoice ${invoiceId} cannot take this payment: ${why}`)

export const isNotPayable = (error: unknown): error is DomainError => error instanceof DomainError && error.code === INVOICE_NOT_PAYABLE

function existing(state: InvoiceState, command: Scoped): ExistingInvoice {
  if (state.status === 'none' || state.status === 'deleted' || state.organizationId !== command.organizationId)
    throw notFound('Invoice', command.invoiceId)
  return state
}

function assertDueDate(dueDate: string, now: string, field?: string): void {
  const problems = dueDateProblems(dueDate, now, field)
  if (problems.length > 0) throw invalid('invoice_due_date_invalid', 'The due date cannot be used', problems)
}

/** The content a body describes: the payer as sent, the lines with their amounts, the totals. */
function contentOf(currency: string, body: Pick<CreateInvoiceBody, 'payer' | 'lineItems' | 'dueDate' | 'memo' | 'metadata'>) {
  const { lineItems, subtotalMinor, totalMinor } = computeTotals(currency, body.lineItems)
  return { payer: body.payer, lineItems, subtotalMinor, totalMinor, dueDate: body.dueDate, memo: body.memo, metadata: body.metadata }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

function decideUpdate(s: ExistingInvoice, changes: UpdateInvoiceBody, ref: Scoped & { customerId: string }): InvoiceEvent[] {
  assertEditable(s.invoiceId, s.status)
  const old = s.content
  const next: InvoiceContent = contentOf(s.currency, {
    payer: changes.payer ?? old.payer,
    lineItems:
      changes.lineItems ?? old.lineItems.map((l) => ({ description: l.description, quantity: l.quantity, unitAmount: l.unitAmountMinor })),
    dueDate: changes.dueDate ?? old.dueDate,
    memo: changes.memo ?? old.memo,
    metadata: changes.metadata ?? old.metadata,
  })
  const changed = INVOICE_CONTENT_FIELDS.filter((field) => !same(next[field], old[field]))
  if (changed.length === 0) return []
  if (changed.includes('dueDate')) assertDueDate(next.dueDate, ref.now)
  const { invoiceId, organizationId, customerId, now: at } = ref
  return [{ type: 'InvoiceUpdated', data: { invoiceId, organizationId, customerId, ...next, changed, at } }]
}

/** 422 for a payment no validated request carries: a non-positive or malformed amount, an empty or overlong deposit reference. */
function paymentShapeProblems(c: { amountMinor: string; depositReference: string }): void {
  if (!/^[1-9]\d{0,39}$/.test(c.amountMinor))
    throw invalid('invalid_amount', 'A payment is a positive integer of minor units', [
      { field: 'amount', message: 'must be a positive integer of minor units', value: c.amountMinor },
    ])
  const { depositReferenceMaxLength } = INVOICE_DECIDER_LIMITS
  if (c.depositReference.length === 0 || c.depositReference.length > depositReferenceMaxLength)
    throw invalid('invalid_deposit_reference', `A deposit reference has 1 to ${depositReferenceMaxLength} characters`, [
      { field: 'depositReference', message: `must have 1 to ${depositReferenceMaxLength} characters` },
    ])
}

function decidePayment(s: ExistingInvoice, c: Extract<InvoiceCommand, { type: 'ApplyInvoicePayment' }>): InvoiceEvent[] {
  paymentShapeProblems(c)
  // Replay first: the deposit that paid the invoice, seen again once it is PAID, is that payment, not a new one.
  const seen = s.payments.find((p) => p.depositReference === c.depositReference)
  if (seen && seen.amountMinor === c.amountMinor) return []
  if (seen)
    throw new DomainError(
      'conflict',
      'reference_reused',
      `Deposit ${c.depositReference} was applied to ${s.invoiceId} for ${seen.amountMinor}`,
    )
  if (s.status !== 'OPEN') throw notPayable(s.invoiceId, `it is ${s.status}`)
  if (c.currency !== s.currency) throw notPayable(s.invoiceId, `it is in ${s.currency}, the payment in ${c.currency}`)
  if (s.payments.length >= INVOICE_DECIDER_LIMITS.maxPayments)
    throw notPayable(s.invoiceId, `it has taken ${INVOICE_DECIDER_LIMITS.maxPayments} payments, the most one invoice takes`)
  const amount = BigInt(c.amountMinor)
  assertAmountsWithinBound([{ field: 'amount', money: { currency: c.currency, amountMinor: amount } }])
  const due = BigInt(s.content.totalMinor)
  const split = splitPayment(due, BigInt(s.amountPaidMinor), amount)
  const { invoiceId, organizationId, customerId, currency } = s
  const ref = { invoiceId, organizationId, customerId, at: c.now }
  const applied: InvoiceEvent = {
    type: 'InvoicePaymentApplied',
    data: {
      ...ref,
      currency,
      depositReference: c.depositReference,
      source: c.source,
      amountMinor: c.amountMinor,
      appliedMinor: split.appliedMinor.toString(),
      excessMinor: split.excessMinor.toString(),
      amountPaidMinor: split.paidAfterMinor.toString(),
    },
  }
  if (!split.covers) return [applied]
  const paidData = { status: 'PAID' as const, currency, amountDueMinor: s.content.totalMinor, createdAt: s.createdAt }
  return [applied, { type: 'InvoicePaid', data: { ...ref, ...paidData, amountPaidMinor: split.paidAfterMinor.toString() } }]
}

function decide(command: InvoiceCommand, state: InvoiceState): InvoiceEvent[] {
  if (command.type === 'CreateInvoice') {
    if (state.status !== 'none') throw new DomainError('conflict', 'resource_already_exists', `Invoice ${command.invoiceId} already exists`)
    const { body, payee, invoiceId, organizationId, now } = command
    const balanceAccountId = payeeAccount(body.customerId, body.currency, payee)
    assertDueDate(body.dueDate, now)
    const content = contentOf(body.currency, body)
    const ids = { invoiceId, organizationId, customerId: body.customerId }
    return [{ type: 'InvoiceCreated', data: { ...ids, currency: body.currency, balanceAccountId, ...content, at: now } }]
  }
  if (command.type === 'DeleteInvoice' && state.status === 'deleted' && state.organizationId === command.organizationId) return []
  // A deposit naming no invoice of this organization is the caller's to route, like any other it cannot take.
  const unknown = state.status === 'none' || state.status === 'deleted' || state.organizationId !== command.organizationId
  if (command.type === 'ApplyInvoicePayment' && unknown) throw notPayable(command.invoiceId, 'no such invoice')
  const s = existing(state, command)
  const ref = { invoiceId: s.invoiceId, organizationId: s.organizationId, customerId: s.customerId, at: command.now }
  const finalized: InvoiceEvent = {
    type: 'InvoiceFinalized',
    data: { ...ref, paymentReference: paymentReferenceOf(s.invoiceId), dueDate: s.content.dueDate },
  }
  const sent = (sendNumber: number): InvoiceEvent => ({
    type: 'InvoiceSent',
    data: { ...ref, delivery: { method: 'RECORDED_ONLY' }, sendNumber },
  })
  switch (command.type) {
    case 'UpdateInvoice':
      return decideUpdate(s, command.changes, { ...command, customerId: s.customerId })
    case 'DeleteInvoice':
      assertMove(s.invoiceId, s.status, 'DELETED')
      return [{ type: 'InvoiceDeleted', data: ref }]
    case 'FinalizeInvoice':
      if (s.status === 'OPEN') return []
      assertMove(s.invoiceId, s.status, 'OPEN')
      assertDueDate(s.content.dueDate, command.now, 'dueDate')
      return [finalized]
    case 'SendInvoice':
      if (s.status === 'DRAFT') {
        assertDueDate(s.content.dueDate, command.now, 'dueDate')
        return [finalized, sent(1)]
      }
      if (s.status !== 'OPEN') throw invalidTransition(s.invoiceId, s.status, 'OPEN')
      if (s.sendCount >= INVOICE_DECIDER_LIMITS.maxSends)
        throw new DomainError('conflict', 'invoice_send_limit_reached', `Invoice ${s.invoiceId} was sent ${s.sendCount} times, the most`)
      return [sent(s.sendCount + 1)]
    case 'CancelInvoice':
      if (s.status === 'CANCELLED') return []
      assertMove(s.invoiceId, s.status, 'CANCELLED')
      return [{ type: 'InvoiceCancelled', data: { ...ref, reason: command.reason, amountPaidMinor: s.amountPaidMinor } }]
    case 'ApplyInvoicePayment':
      return decidePayment(s, command)
    case 'MarkInvoiceOverdue': {
      // A timer may fire late or twice: after payment, cancellation or a first mark there is nothing to say.
      if (s.status !== 'OPEN' || s.overdueAt !== null) return []
      if (!isPastDue(s.content.dueDate, command.now))
        throw new DomainError('conflict', 'invoice_not_yet_due', `Invoice ${s.invoiceId} is overdue from ${overdueFrom(s.content.dueDate)}`)
      const { amountRemainingMinor } = paymentAmounts(s.content.totalMinor, s.amountPaidMinor)
      return [{ type: 'InvoiceMarkedOverdue', data: { ...ref, dueDate: s.content.dueDate, amountRemainingMinor } }]
    }
  }
}

export const invoiceDecider: Decider<InvoiceState, InvoiceCommand, InvoiceEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
}
