// Payments of an OPEN invoice: partial payments accumulate, the same deposit never counts twice, the
// covering payment writes InvoicePaid exactly once, an excess is recorded, and what the invoice cannot
// take is refused with the one code the caller routes to the customer's balance.
import t from 'tap'
import { INVOICE_DECIDER_LIMITS, type InvoiceCommand, invoiceDecider, isNotPayable } from '../../../domain/invoice/decider.js'
import type { InvoiceEvent } from '../../../domain/invoice/events.js'
import { paymentAmounts, splitPayment } from '../../../domain/invoice/paymentState.js'
import { toInvoiceResource } from '../../../domain/invoice/resource.js'
import type { InvoiceState } from '../../../domain/invoice/state.js'
import { spec } from '../deciderSpec.js'
import { applied, cancelled, created, deleted, finalized, paid, pay } from '../invoiceFixtures.js'

const invoice = spec(invoiceDecider)
const open = [created, finalized]

/** Folds each command's events into the history, as the command runtime does. */
function run(history: InvoiceEvent[], commands: InvoiceCommand[]): { events: InvoiceEvent[]; state: InvoiceState } {
  let state = history.reduce(invoiceDecider.evolve, invoiceDecider.initialState())
  const events: InvoiceEvent[] = []
  for (const command of commands) {
    const decided = invoiceDecider.decide(command, state)
    events.push(...decided)
    state = decided.reduce(invoiceDecider.evolve, state)
  }
  return { events, state }
}
const existing = (state: InvoiceState) => {
  if (state.status === 'none' || state.status === 'deleted') throw new Error('no invoice')
  return state
}

t.test('a partial payment: PARTIALLY_PAID, still OPEN', async (t) => {
  invoice
    .given(open)
    .when(pay('2000', 'dep_1'))
    .then(t, [applied('2000', 'dep_1', { applied: '2000', excess: '0', paid: '2000' })])
  const { state } = run(open, [pay('2000', 'dep_1')])
  const read = toInvoiceResource(existing(state))
  t.match(read, { status: 'OPEN', paymentState: 'PARTIALLY_PAID' })
  t.same([read.amountDue.value, read.amountPaid.value, read.amountRemaining.value], ['5000', '2000', '3000'])
  t.equal(read.amountRemaining.displayValue, '30.00')
})

t.test('partial payments accumulate; the one that covers the amount writes InvoicePaid', async (t) => {
  const { events, state } = run(open, [pay('2000', 'dep_1'), pay('1000', 'dep_2'), pay('2000', 'dep_3')])
  t.same(events, [
    applied('2000', 'dep_1', { applied: '2000', excess: '0', paid: '2000' }),
    applied('1000', 'dep_2', { applied: '1000', excess: '0', paid: '3000' }),
    applied('2000', 'dep_3', { applied: '2000', excess: '0', paid: '5000' }),
    paid('5000'),
  ])
  t.match(toInvoiceResource(existing(state)), { status: 'PAID', paymentState: 'PAID', amountRemaining: { value: '0' }, paidAt: '2026-' })
})

t.test('the same deposit replayed never counts twice, before or after the invoice is paid', async (t) => {
  const first = applied('2000', 'dep_1', { applied: '2000', excess: '0', paid: '2000' })
  invoice
    .given([...open, first])
    .when(pay('2000', 'dep_1'))
    .then(t, [], 'replayed while PARTIALLY_PAID')
  const paidHistory = [...open, applied('5000', 'dep_9', { applied: '5000', excess: '0', paid: '5000' }), paid('5000')]
  invoice
    .given(paidHistory)
    .when(pay('5000', 'dep_9'))
    .then(t, [], 'the paying deposit replayed on the PAID invoice: nothing, not a refusal')
  const cancelledHistory = [...open, first, cancelled]
  invoice.given(cancelledHistory).when(pay('2000', 'dep_1')).then(t, [], 'a deposit applied before the cancellation: nothing')
})

t.test('20 deliveries of the same deposit pay the invoice once', async (t) => {
  const { events, state } = run(
    open,
    Array.from({ length: 20 }, () => pay('5000', 'dep_same')),
  )
  t.same(events, [applied('5000', 'dep_same', { applied: '5000', excess: '0', paid: '5000' }), paid('5000')])
  t.equal(events.filter((e) => e.type === 'InvoicePaid').length, 1, 'InvoicePaid exactly once')
  t.match(state, { status: 'PAID', amountPaidMinor: '5000', payments: [{ depositReference: 'dep_same' }] })
})

t.test('the same deposit reference with another amount: 409 reference_reused, nothing counted', async (t) => {
  const partly = [...open, applied('2000', 'dep_1', { applied: '2000', excess: '0', paid: '2000' })]
  invoice.given(partly).when(pay('2500', 'dep_1')).thenThrows(t, 'reference_reused')
})

t.test('an excess is recorded on the payment; the invoice is OVERPAID', async (t) => {
  const partly = [...open, applied('4000', 'dep_1', { applied: '4000', excess: '0', paid: '4000' })]
  invoice
    .given(partly)
    .when(pay('2500', 'dep_2'))
    .then(t, [applied('2500', 'dep_2', { applied: '1000', excess: '1500', paid: '6500' }), paid('6500')])
  const { state } = run(partly, [pay('2500', 'dep_2')])
  const read = toInvoiceResource(existing(state))
  t.match(read, { status: 'PAID', paymentState: 'OVERPAID' })
  t.same([read.amountPaid.value, read.amountRemaining.value], ['6500', '0'])
})

t.test('a payment on a PAID, CANCELLED, DRAFT, deleted or unknown invoice: invoice_not_payable, for the balance', async (t) => {
  const histories: [string, InvoiceEvent[]][] = [
    ['PAID', [...open, applied('5000', 'dep_1', { applied: '5000', excess: '0', paid: '5000' }), paid('5000')]],
    ['CANCELLED', [...open, cancelled]],
    ['DRAFT', [created]],
    ['deleted', [created, deleted]],
    ['unknown', []],
  ]
  for (const [name, history] of histories) {
    invoice.given(history).when(pay('5000', 'dep_new')).thenThrows(t, 'invoice_not_payable', name)
    try {
      invoiceDecider.decide(pay('5000', 'dep_new'), invoice.given(history).state)
    } catch (error) {
      t.ok(isNotPayable(error), `${name}: the caller can tell it apart`)
    }
  }
  invoice
    .given(open)
    .when({ ...pay('5000', 'dep_1'), organizationId: 'org_b' } as InvoiceCommand)
    .thenThrows(t, 'invoice_not_payable', "another organization's")
  invoice
    .given(open)
    .when({ ...pay('5000', 'dep_1'), currency: 'EUR' } as InvoiceCommand)
    .thenThrows(t, 'invoice_not_payable', 'another currency')
})

t.test('a payment is positive and within the amount bound; an invoice takes a bounded number of payments', async (t) => {
  invoice.given(open).when(pay('0', 'dep_1')).thenThrows(t, 'invalid_amount')
  invoice.given(open).when(pay(' 12', 'dep_1')).thenThrows(t, 'invalid_amount', 'a malformed amount')
  invoice.given(open).when(pay('12', '')).thenThrows(t, 'invalid_deposit_reference', 'no reference')
  invoice
    .given(open)
    .when(pay('12', 'd'.repeat(65)))
    .thenThrows(t, 'invalid_deposit_reference', 'a reference too long to store')
  invoice
    .given(open)
    .when(pay(`1${'0'.repeat(14)}1`, 'dep_1'))
    .thenThrows(t, 'amount_too_large')
  const many = Array.from({ length: INVOICE_DECIDER_LIMITS.maxPayments }, (_, i) =>
    applied('1', `dep_${i}`, { applied: '1', excess: '0', paid: String(i + 1) }),
  )
  invoice
    .given([...open, ...many])
    .when(pay('1', 'dep_last'))
    .thenThrows(t, 'invoice_not_payable', 'past the bound: to the balance')
})

t.test('the payment state: UNPAID, PARTIALLY_PAID, PAID, OVERPAID; a split never applies more than is due', async (t) => {
  t.same(
    ['0', '1', '5000', '5001'].map((p) => paymentAmounts('5000', p)),
    [
      { paymentState: 'UNPAID', amountDueMinor: '5000', amountPaidMinor: '0', amountRemainingMinor: '5000' },
      { paymentState: 'PARTIALLY_PAID', amountDueMinor: '5000', amountPaidMinor: '1', amountRemainingMinor: '4999' },
      { paymentState: 'PAID', amountDueMinor: '5000', amountPaidMinor: '5000', amountRemainingMinor: '0' },
      { paymentState: 'OVERPAID', amountDueMinor: '5000', amountPaidMinor: '5001', amountRemainingMinor: '0' },
    ],
  )
  t.same(splitPayment(5000n, 4000n, 2500n), { appliedMinor: 1000n, excessMinor: 1500n, paidAfterMinor: 6500n, covers: true })
  t.same(splitPayment(5000n, 0n, 10n ** 20n), {
    appliedMinor: 5000n,
    excessMinor: 10n ** 20n - 5000n,
    paidAfterMinor: 10n ** 20n,
    covers: true,
  })
  t.throws(() => splitPayment(5000n, 0n, 0n), /Invariant/)
})
