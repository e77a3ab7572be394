// The invoice's lifecycle: create (payee facts, totals, due date), the DRAFT's edits and deletion,
// finalize and send to OPEN, cancel, the finals, and every move the table lacks.
import t from 'tap'
import { type InvoiceCommand, invoiceDecider } from '../../../domain/invoice/decider.js'
import type { InvoiceEvent } from '../../../domain/invoice/events.js'
import { INVOICE_TRANSITIONS, canMove } from '../../../domain/invoice/statuses.js'
import { spec } from '../deciderSpec.js'
import { body, cancelled, create, created, deleted, finalized, later, now, paid, pay, applied, scope, sent } from '../invoiceFixtures.js'

const invoice = spec(invoiceDecider)
const cmd = (c: Record<string, unknown> & { type: InvoiceCommand['type'] }) => ({ ...scope, ...c }) as InvoiceCommand
const paidInFull: InvoiceEvent[] = [
  created,
  finalized,
  applied('5000', 'dep_1', { applied: '5000', excess: '0', paid: '5000' }),
  paid('5000'),
]

t.test('create: a DRAFT with the totals computed by the service', async (t) => {
  invoice.given([]).when(create).then(t, [created])
  const s = invoice.given([created]).state
  t.match(s, { status: 'DRAFT', amountPaidMinor: '0', paymentReference: null, content: { totalMinor: '5000' } })
  invoice.given([created]).when(create).thenThrows(t, 'resource_already_exists')
})

t.test('create: the payee must be APPROVED and hold a balance account in the currency', async (t) => {
  invoice
    .given([])
    .when({ ...create, payee: { customerStatus: 'UNDER_REVIEW', balanceAccountId: 'acc_usd' } } as InvoiceCommand)
    .thenThrows(t, 'customer_not_approved')
  invoice
    .given([])
    .when({ ...create, payee: { customerStatus: 'APPROVED', balanceAccountId: null } } as InvoiceCommand)
    .thenThrows(t, 'invoice_balance_account_missing')
})

t.test('create: the due date is today or later, and at most two years ahead', async (t) => {
  const due = (dueDate: string) => ({ ...create, body: { ...body, dueDate } }) as InvoiceCommand
  invoice.given([]).when(due('2026-11-27')).thenThrows(t, 'invoice_due_date_invalid', 'yesterday')
  invoice
    .given([])
    .when(due('2026-11-28'))
    .thenMatches(t, [{ type: 'InvoiceCreated' }], 'today')
  invoice.given([]).when(due('2030-01-01')).thenThrows(t, 'invoice_due_date_invalid', 'too far ahead')
})

t.test('a DRAFT is editable: the whole content is carried, with what changed', async (t) => {
  const lineItems = [{ description: 'Audit', quantity: 3, unitAmount: '1000' }]
  invoice
    .given([created])
    .when(cmd({ type: 'UpdateInvoice', now: later, changes: { lineItems, memo: 'Revised' } }))
    .thenMatches(t, [
      {
        type: 'InvoiceUpdated',
        data: {
          changed: ['lineItems', 'memo'],
          lineItems: [{ description: 'Audit', quantity: 3, unitAmountMinor: '1000', amountMinor: '3000' }],
          subtotalMinor: '3000',
          totalMinor: '3000',
          memo: 'Revised',
          payer: body.payer,
          at: later,
        },
      },
    ])
  invoice
    .given([created])
    .when(cmd({ type: 'UpdateInvoice', changes: { memo: 'Thank you' } }))
    .then(t, [], 'no change, no event')
  invoice
    .given([created])
    .when(cmd({ type: 'UpdateInvoice', changes: { dueDate: '2020-01-01' } }))
    .thenThrows(t, 'invoice_due_date_invalid')
  const [updated] = invoiceDecider.decide(
    cmd({ type: 'UpdateInvoice', now: later, changes: { lineItems } }),
    invoice.given([created]).state,
  )
  t.match(
    invoice.given([created, updated!]).state,
    { content: { totalMinor: '3000' }, updatedAt: later },
    'the state takes the new content',
  )
})

t.test('OPEN, PAID and CANCELLED invoices never change: cancel and re-issue', async (t) => {
  for (const [name, history] of [
    ['OPEN', [created, finalized]],
    ['PAID', paidInFull],
    ['CANCELLED', [created, finalized, cancelled]],
  ] as const) {
    invoice
      .given([...history])
      .when(cmd({ type: 'UpdateInvoice', changes: { memo: 'x' } }))
      .thenThrows(t, 'invoice_invalid_transition', `${name}: no update`)
    invoice
      .given([...history])
      .when(cmd({ type: 'DeleteInvoice' }))
      .thenThrows(t, 'invoice_invalid_transition', `${name}: no delete`)
  }
})

t.test('a DRAFT is deletable, once; the deleted invoice is gone', async (t) => {
  invoice
    .given([created])
    .when(cmd({ type: 'DeleteInvoice' }))
    .then(t, [deleted])
  invoice
    .given([created, deleted])
    .when(cmd({ type: 'DeleteInvoice' }))
    .then(t, [], 'a repeated delete decides nothing')
  invoice
    .given([created, deleted])
    .when(cmd({ type: 'FinalizeInvoice' }))
    .thenThrows(t, 'resource_not_found')
  invoice
    .given([created, deleted])
    .when(cmd({ type: 'UpdateInvoice', changes: { memo: 'x' } }))
    .thenThrows(t, 'resource_not_found')
  invoice
    .given([])
    .when(cmd({ type: 'DeleteInvoice' }))
    .thenThrows(t, 'resource_not_found')
  invoice
    .given([created])
    .when(cmd({ type: 'DeleteInvoice', organizationId: 'org_b' }))
    .thenThrows(t, 'resource_not_found', 'another org')
})

t.test('finalize: DRAFT to OPEN with its payment reference; again, nothing', async (t) => {
  invoice
    .given([created])
    .when(cmd({ type: 'FinalizeInvoice' }))
    .then(t, [finalized])
  t.match(invoice.given([created, finalized]).state, { status: 'OPEN', paymentReference: /^INV-[0-9A-Z]{26}-\d{2}$/ })
  invoice
    .given([created, finalized])
    .when(cmd({ type: 'FinalizeInvoice' }))
    .then(t, [], 'already OPEN')
  invoice
    .given([created])
    .when(cmd({ type: 'FinalizeInvoice', now: '2026-12-16T00:00:00.000Z' }))
    .thenThrows(t, 'invoice_due_date_invalid', 'a draft past its due date is edited first')
})

t.test('send: a DRAFT is finalized then sent; an OPEN one is sent again, within a bound', async (t) => {
  invoice
    .given([created])
    .when(cmd({ type: 'SendInvoice' }))
    .then(t, [finalized, sent(1)])
  invoice
    .given([created, finalized])
    .when(cmd({ type: 'SendInvoice' }))
    .then(t, [sent(1)])
  invoice
    .given([created, finalized, sent(1)])
    .when(cmd({ type: 'SendInvoice' }))
    .then(t, [sent(2)], 'a resend is recorded')
  const tenSends = Array.from({ length: 10 }, (_, i) => sent(i + 1))
  invoice
    .given([created, finalized, ...tenSends])
    .when(cmd({ type: 'SendInvoice' }))
    .thenThrows(t, 'invoice_send_limit_reached')
  t.match(invoice.given([created, finalized, sent(1, later)]).state, { status: 'OPEN', sendCount: 1, lastSentAt: later })
})

t.test('cancel: OPEN to CANCELLED (final); a DRAFT is deleted instead', async (t) => {
  invoice
    .given([created, finalized])
    .when(cmd({ type: 'CancelInvoice', reason: null }))
    .then(t, [cancelled])
  invoice
    .given([created, finalized, cancelled])
    .when(cmd({ type: 'CancelInvoice', reason: null }))
    .then(t, [], 'again: nothing')
  invoice
    .given([created])
    .when(cmd({ type: 'CancelInvoice', reason: null }))
    .thenThrows(t, 'invoice_invalid_transition')
  invoice
    .given(paidInFull)
    .when(cmd({ type: 'CancelInvoice', reason: null }))
    .thenThrows(t, 'invoice_invalid_transition')
  const partly = [created, finalized, applied('1000', 'dep_1', { applied: '1000', excess: '0', paid: '1000' })]
  invoice
    .given(partly)
    .when(cmd({ type: 'CancelInvoice', reason: 'wrong amount' }))
    .thenMatches(t, [{ type: 'InvoiceCancelled', data: { reason: 'wrong amount', amountPaidMinor: '1000' } }], 'records what was paid')
})

t.test('PAID and CANCELLED are final: no finalize, no send, named in the refusal', async (t) => {
  for (const history of [paidInFull, [created, finalized, cancelled]]) {
    const from = invoice.given(history).state.status
    for (const type of ['FinalizeInvoice', 'SendInvoice'] as const) {
      try {
        invoiceDecider.decide(cmd({ type }), invoice.given(history).state)
        t.fail(`${type} from ${from}`)
      } catch (error) {
        t.match(error, { code: 'invoice_invalid_transition', message: new RegExp(`from ${from} to OPEN`) }, `${type} from ${from}`)
      }
    }
  }
})

t.test('the table: DRAFT to OPEN or deleted, OPEN to PAID or CANCELLED, the finals go nowhere', async (t) => {
  t.same(INVOICE_TRANSITIONS, { DRAFT: ['OPEN', 'DELETED'], OPEN: ['PAID', 'CANCELLED'], PAID: [], CANCELLED: [] })
  t.notOk(canMove('OPEN', 'DRAFT'))
  t.notOk(canMove('DRAFT', 'PAID'), 'a DRAFT has no reference to be paid by')
  invoice.given([created]).when(pay('5000', 'dep_1')).thenThrows(t, 'invoice_not_payable', 'a DRAFT takes no payment')
})

t.test('commands on an invoice that does not exist, or is another organization’s, are 404', async (t) => {
  for (const type of ['FinalizeInvoice', 'SendInvoice', 'MarkInvoiceOverdue'] as const) {
    invoice.given([]).when(cmd({ type })).thenThrows(t, 'resource_not_found', type)
    invoice
      .given([created])
      .when(cmd({ type, organizationId: 'org_b' }))
      .thenThrows(t, 'resource_not_found', `${type}, org_b`)
  }
  t.equal(now < later, true)
})
