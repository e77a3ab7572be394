// The request bodies: the create body's bounds (lines, quantities, amounts, lengths), the payer's
// personal data marked sensitive, and an update that must change something.
import t from 'tap'
import { INVOICE_LIMITS, createInvoiceBody, updateInvoiceBody } from '../../../domain/invoice/invoiceBody.js'
import { sensitivePaths } from '../../../domain/shared/sensitive/index.js'
import { body } from '../invoiceFixtures.js'

const accepts = (value: unknown) => createInvoiceBody.safeParse(value).success

t.test('a create body: defaults for memo and metadata', async (t) => {
  const { memo: _m, metadata: _md, ...minimal } = body
  t.match(createInvoiceBody.parse(minimal), { memo: '', metadata: {}, lineItems: [{ quantity: 2, unitAmount: '1500' }] })
  t.ok(accepts({ ...body, currency: 'USDC' }), 'a stablecoin')
  t.ok(
    accepts({
      ...body,
      payer: { ...body.payer, address: { addressLine1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' } },
    }),
  )
})

t.test('1 to 100 lines; a positive integer quantity; a minor-unit string as the unit amount', async (t) => {
  const item = body.lineItems[0]!
  t.notOk(accepts({ ...body, lineItems: [] }), 'no line')
  t.ok(accepts({ ...body, lineItems: Array(INVOICE_LIMITS.maxLineItems).fill(item) }), '100 lines')
  t.notOk(accepts({ ...body, lineItems: Array(INVOICE_LIMITS.maxLineItems + 1).fill(item) }), '101 lines')
  for (const quantity of [0, -1, 1.5, INVOICE_LIMITS.maxQuantity + 1, '2'])
    t.notOk(accepts({ ...body, lineItems: [{ ...item, quantity }] }), `quantity ${quantity}`)
  for (const unitAmount of ['12.50', '-1', '01', 1500, '1e3', '9'.repeat(40)])
    t.notOk(accepts({ ...body, lineItems: [{ ...item, unitAmount }] }), `unitAmount ${String(unitAmount)}`)
  t.ok(accepts({ ...body, lineItems: [{ ...item, unitAmount: '0' }, item] }), 'a free line beside a paid one')
})

t.test('lengths, currency, email and due date', async (t) => {
  t.notOk(accepts({ ...body, memo: 'x'.repeat(INVOICE_LIMITS.memoMaxLength + 1) }))
  t.ok(accepts({ ...body, memo: 'line one\nline two' }), 'a memo may span lines')
  t.notOk(accepts({ ...body, payer: { ...body.payer, name: 'x'.repeat(INVOICE_LIMITS.payerNameMaxLength + 1) } }))
  t.notOk(accepts({ ...body, payer: { ...body.payer, email: 'not an email' } }))
  t.notOk(accepts({ ...body, payer: { name: 'Ada' } }), 'the email is required')
  t.notOk(accepts({ ...body, currency: 'ZZZ' }), 'an unknown currency')
  t.notOk(accepts({ ...body, dueDate: '2026-02-30' }), 'not a calendar date')
  t.notOk(accepts({ ...body, total: '5000' }), 'totals are the service’s, never the caller’s')
})

t.test("the payer's name, email and street lines are sensitive", async (t) => {
  t.same(sensitivePaths(createInvoiceBody).sort(), [
    'payer.address.addressLine1',
    'payer.address.addressLine2',
    'payer.address.transliterated.addressLine1',
    'payer.address.transliterated.addressLine2',
    'payer.email',
    'payer.name',
  ])
})

t.test('an update changes the content only, and at least one field', async (t) => {
  t.ok(updateInvoiceBody.safeParse({ memo: 'Revised' }).success)
  t.notOk(updateInvoiceBody.safeParse({}).success, 'nothing to change')
  t.notOk(updateInvoiceBody.safeParse({ currency: 'EUR' }).success, 'the currency is fixed')
  t.notOk(updateInvoiceBody.safeParse({ customerId: 'cus_2' }).success, 'the customer is fixed')
})
