// The public events of invoices: the five spec types, invoice.paid with exactly the spec's data
// fields, no payer in any payload, and events without a public one.
import t from 'tap'
import { invoiceAggregate } from '../../../domain/invoice/index.js'
import { invoiceEventSchemas } from '../../../domain/invoice/events.js'
import { invoicePublicEvents } from '../../../domain/invoice/publicEvents.js'
import { PUBLIC_EVENT_TYPES, isPublicEventType, publicEventOf } from '../../../domain/publicEvents.js'
import { hasSensitive, sensitivePaths } from '../../../domain/shared/sensitive/index.js'
import type { InvoiceEvent } from '../../../domain/invoice/events.js'
import { applied, cancelled, created, deleted, finalized, later, overdue, paid, sent } from '../invoiceFixtures.js'

const publicOf = (event: InvoiceEvent) => publicEventOf(invoicePublicEvents, { ...event, recordedAt: new Date(later) })

t.test('invoice.paid carries exactly the spec fields: id, customerId, amount, currency, status, paidAt, createdAt', async (t) => {
  const event = publicOf(paid('6500'))
  t.equal(event?.type, 'invoice.paid')
  t.same(Object.keys(event?.data ?? {}).sort(), ['amount', 'createdAt', 'currency', 'customerId', 'id', 'paidAt', 'status'])
  t.same(event?.data, {
    id: 'inv_01jdz8k3m0abcdefghjkmnpqrs',
    customerId: 'cus_1',
    amount: '5000',
    currency: 'USD',
    status: 'PAID',
    paidAt: later,
    createdAt: '2026-11-28T10:00:00.000Z',
  })
  t.same(event?.tags, ['inv_01jdz8k3m0abcdefghjkmnpqrs', 'cus_1'])
})

t.test('the five spec types, each from one stored event', async (t) => {
  t.same(
    [created, sent(1), paid('5000'), cancelled, overdue].map((e) => publicOf(e)?.type),
    ['invoice.created', 'invoice.sent', 'invoice.paid', 'invoice.cancelled', 'invoice.overdue'],
  )
  for (const type of ['invoice.created', 'invoice.sent', 'invoice.paid', 'invoice.cancelled', 'invoice.overdue'])
    t.ok(isPublicEventType(type) && PUBLIC_EVENT_TYPES.includes(type), `${type} is listed`)
  t.match(publicOf(created)?.data, { id: 'inv_01jdz8k3m0abcdefghjkmnpqrs', status: 'DRAFT', amount: '5000', currency: 'USD' })
  t.match(publicOf(overdue)?.data, { status: 'OPEN', overdue: true, dueDate: '2026-12-15', amountRemaining: '5000' })
})

t.test('no public event for finalize, update, delete or a payment; no payer in any payload', async (t) => {
  for (const e of [finalized, deleted, applied('1', 'dep_1', { applied: '1', excess: '0', paid: '1' })])
    t.equal(publicOf(e), undefined, e.type)
  for (const e of [created, sent(1), paid('5000'), cancelled, overdue]) {
    const text = JSON.stringify(publicOf(e))
    t.notOk(/Ada Lovelace|ada@example.com|payer/.test(text), `${e.type}: no payer`)
  }
})

t.test('the payer is sealed: name, email and street lines are marked sensitive in the stored events', async (t) => {
  t.ok(hasSensitive(invoiceEventSchemas.InvoiceCreated))
  t.ok(hasSensitive(invoiceEventSchemas.InvoiceUpdated))
  const paths = sensitivePaths(invoiceEventSchemas.InvoiceCreated)
  for (const path of ['payer.name', 'payer.email', 'payer.address.addressLine1']) t.ok(paths.includes(path), path)
  for (const type of ['InvoicePaid', 'InvoicePaymentApplied', 'InvoiceFinalized'] as const)
    t.notOk(hasSensitive(invoiceEventSchemas[type]), `${type}: nothing personal`)
})

t.test('the descriptor: invoice streams of inv_ ids, every decided event a schema, the payee customer as data subject', async (t) => {
  t.match(invoiceAggregate, { name: 'invoice', streamCategory: 'invoice', idPrefix: 'inv', dataSubject: 'customer' })
  for (const e of [created, finalized, sent(1), paid('5000'), cancelled, overdue, deleted])
    t.ok(invoiceAggregate.eventSchemas[e.type].safeParse(e.data).success, `${e.type} parses`)
  for (const [type, schema] of Object.entries(invoiceEventSchemas))
    t.ok('customerId' in schema.shape, `${type} names the customer (its data key)`)
})
