// Overdue: an OPEN invoice with money owed, past its due date, is marked once; the status stays OPEN
// and `overdue` is derived. A late or repeated timer decides nothing.
import t from 'tap'
import { type InvoiceCommand, invoiceDecider } from '../../../domain/invoice/decider.js'
import { isPastDue, overdueFrom } from '../../../domain/invoice/dueDate.js'
import { toInvoiceResource } from '../../../domain/invoice/resource.js'
import { spec } from '../deciderSpec.js'
import { afterDue, applied, cancelled, created, finalized, overdue, paid, scope } from '../invoiceFixtures.js'

const invoice = spec(invoiceDecider)
const mark = (now = afterDue): InvoiceCommand => ({ type: 'MarkInvoiceOverdue', ...scope, now })
const open = [created, finalized]

t.test('an OPEN unpaid invoice past its due date is marked overdue; it stays OPEN', async (t) => {
  invoice.given(open).when(mark()).then(t, [overdue])
  const s = invoice.given([...open, overdue]).state
  if (s.status === 'none' || s.status === 'deleted') throw new Error('no invoice')
  t.match(toInvoiceResource(s), { status: 'OPEN', overdue: true, paymentState: 'UNPAID' })
})

t.test('once: a second mark decides nothing', async (t) => {
  invoice
    .given([...open, overdue])
    .when(mark())
    .then(t, [])
})

t.test('a partly paid invoice is overdue for what remains', async (t) => {
  const partly = [...open, applied('1000', 'dep_1', { applied: '1000', excess: '0', paid: '1000' })]
  invoice
    .given(partly)
    .when(mark())
    .thenMatches(t, [{ type: 'InvoiceMarkedOverdue', data: { amountRemainingMinor: '4000' } }])
})

t.test('never after payment, cancellation, or for a DRAFT', async (t) => {
  const paidHistory = [...open, applied('5000', 'dep_1', { applied: '5000', excess: '0', paid: '5000' }), paid('5000')]
  invoice.given(paidHistory).when(mark()).then(t, [], 'PAID')
  invoice
    .given([...open, cancelled])
    .when(mark())
    .then(t, [], 'CANCELLED')
  invoice.given([created]).when(mark()).then(t, [], 'DRAFT: never issued')
})

t.test('paid after being marked: no longer overdue', async (t) => {
  const history = [...open, overdue, applied('5000', 'dep_1', { applied: '5000', excess: '0', paid: '5000' }), paid('5000')]
  const s = invoice.given(history).state
  if (s.status === 'none' || s.status === 'deleted') throw new Error('no invoice')
  t.match(toInvoiceResource(s), { status: 'PAID', overdue: false })
})

t.test('not before the day after the due date (UTC)', async (t) => {
  t.equal(overdueFrom('2026-12-15'), '2026-12-16T00:00:00.000Z')
  t.notOk(isPastDue('2026-12-15', '2026-12-15T23:59:59.999Z'), 'due through its due date')
  t.ok(isPastDue('2026-12-15', '2026-12-16T00:00:00.000Z'))
  invoice.given(open).when(mark('2026-12-15T23:59:59.999Z')).thenThrows(t, 'invoice_not_yet_due')
})
