// Invoices through HTTP against real Postgres (issue 28): create (totals computed, the payee's checks,
// Idempotency-Key), DRAFT changes and deletion, finalize and send (OPEN, the reference, invoice.sent
// recorded), OPEN is immutable, cancel; the sandbox payer (partial payments accumulate, the covering one
// pays once with exactly the spec's invoice.paid fields, an excess and an unmatched deposit go to the
// balance, a replayed deposit counts once); the balance history naming the invoice; closing the balance
// account refused while the invoice is OPEN; reads, the list's filters and the hosted page; tenancy.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'
import { approvedCustomer, availableOf, eventually, usdBalance } from '../transfers/transferWorld.js'
import {
  type Invoice,
  createInvoice,
  expectStatus,
  getInvoice,
  invoiceAction,
  invoiceBody,
  openInvoice,
  simulatePayment,
} from './invoiceWorld.js'

const now = new Date('2026-11-28T10:00:00.000Z')
const h = await startTestApp(t, {}, { clock: () => now, webhooks: { dispatcher: false } })
const payee = await approvedCustomer(h, ['USD_BALANCE'])
const balance = await usdBalance(h, payee)

type Page = { data: Invoice[]; has_more: boolean; page_next: string | null }
type Message = { payload: { type: string; data: Record<string, unknown> } }

const messagesOf = async (tag: string, type: string) =>
  ((await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${tag}&eventTypes=${type}` })).json() as { data: Message[] }).data

t.test('create: a DRAFT with totals computed by the service, the payer as sent; Idempotency-Key replays', async (t) => {
  const headers = { 'idempotency-key': 'inv-create-1' }
  const first = expectStatus(await createInvoice(h, invoiceBody(payee), headers), 201)
  t.match(first, {
    status: 'DRAFT',
    paymentState: 'UNPAID',
    customerId: payee,
    currency: 'USD',
    total: { value: '5000', currency: 'USD' },
    amountDue: { value: '5000' },
    amountRemaining: { value: '5000' },
    payer: { name: 'Grace Hopper', email: 'grace@example.com', address: { city: 'Arlington' } },
    lineItems: [{ amount: { value: '3000' } }, { amount: { value: '2000' } }],
    overdue: false,
    paymentInstructions: null,
  })
  t.match(first.id, /^inv_[0-9a-z]{26}$/)
  const again = expectStatus(await createInvoice(h, invoiceBody(payee), headers), 201)
  t.equal(again.id, first.id, 'the same key answers the same invoice')
  const created = await eventually(
    () => messagesOf(first.id, 'invoice.created'),
    (m) => m.length === 1,
    'invoice.created',
  )
  t.match(created[0]!.payload.data, { id: first.id, customerId: payee, status: 'DRAFT', amount: '5000', currency: 'USD' })
  t.notOk(JSON.stringify(created[0]!.payload).includes('Grace'), 'no payer data in the webhook')
})

t.test('create refused: unapproved payee, no balance account in the currency, a past due date, bad lines', async (t) => {
  const draftCustomer = (await createIndividual(h)).id
  t.match(expectStatus(await createInvoice(h, invoiceBody(draftCustomer)), 422, 'unapproved'), { code: 'customer_not_approved' })
  t.match(expectStatus(await createInvoice(h, invoiceBody(payee, { currency: 'EUR' })), 422, 'no EUR balance'), {
    code: 'invoice_balance_account_missing',
  })
  t.match(expectStatus(await createInvoice(h, invoiceBody(payee, { dueDate: '2026-11-27' })), 422, 'past due'), {
    code: 'invoice_due_date_invalid',
  })
  const badLines = invoiceBody(payee, { lineItems: [{ description: 'x', quantity: 0, unitAmount: '1.5' }] })
  const refused = expectStatus<{ code: string; details: { field: string }[] }>(await createInvoice(h, badLines), 400, 'bad lines')
  t.ok(refused.details.length >= 2, 'each bad field named')
  t.match(expectStatus(await createInvoice(h, invoiceBody('cus_00000000000000000000000000')), 404), { code: 'resource_not_found' })
  const list = expectStatus<Page>(await h.request({ method: 'GET', url: `/v1/invoices?customerId=${draftCustomer}` }), 200)
  t.same(list.data, [], 'nothing was created')
})

t.test('a DRAFT changes (totals again) and is deleted; OPEN is immutable; corrections are cancel and re-issue', async (t) => {
  const draft = expectStatus(await createInvoice(h, invoiceBody(payee)), 201)
  const patch = (payload: object) => h.request({ method: 'PATCH', url: `/v1/invoices/${draft.id}`, payload })
  const changed = expectStatus(await patch({ lineItems: [{ description: 'Audit', quantity: 3, unitAmount: '999' }], memo: 'v2' }), 200)
  t.match(changed, { total: { value: '2997' }, memo: 'v2', status: 'DRAFT' })
  expectStatus(await patch({ customerId: payee }), 400, 'the payee is fixed')
  const deleted = expectStatus(await h.request({ method: 'DELETE', url: `/v1/invoices/${draft.id}` }), 200)
  t.same(deleted, { id: draft.id, deleted: true })
  t.equal((await getInvoice(h, draft.id)).statusCode, 404, 'gone')

  const open = await openInvoice(h, payee)
  t.match(open, { status: 'OPEN', paymentState: 'UNPAID' })
  t.match(open.paymentInstructions, {
    reference: /^INV-[0-9A-Z]{26}-\d{2}$/,
    balanceAccountId: balance,
    hostedUrl: `/v1/invoices/${open.id}/hosted`,
  })
  const edit = await h.request({ method: 'PATCH', url: `/v1/invoices/${open.id}`, payload: { memo: 'late change' } })
  t.match(expectStatus(edit, 409), { code: 'invoice_invalid_transition' })
  t.equal((await h.request({ method: 'DELETE', url: `/v1/invoices/${open.id}` })).statusCode, 409, 'an OPEN invoice is not deleted')
  const cancelled = expectStatus(await invoiceAction(h, open.id, 'cancel', { reason: 'wrong amount' }), 200)
  t.match(cancelled, { status: 'CANCELLED' })
  t.match(expectStatus(await invoiceAction(h, open.id, 'cancel'), 200), { status: 'CANCELLED' }, 'again: as it is')
  t.match(expectStatus(await invoiceAction(h, open.id, 'finalize'), 409), { code: 'invoice_invalid_transition' })
  const message = await eventually(
    () => messagesOf(open.id, 'invoice.cancelled'),
    (m) => m.length === 1,
    'invoice.cancelled',
  )
  t.match(message[0]!.payload.data, { id: open.id, status: 'CANCELLED', reason: 'wrong amount' })
})

t.test('finalize, then send: OPEN once, each send recorded (no email in the sandbox)', async (t) => {
  const draft = expectStatus(await createInvoice(h, invoiceBody(payee)), 201)
  const finalized = expectStatus(await invoiceAction(h, draft.id, 'finalize'), 200)
  t.match(finalized, { status: 'OPEN', sentAt: null })
  t.match(expectStatus(await invoiceAction(h, draft.id, 'finalize'), 200), { status: 'OPEN' }, 'finalizing again: as it is')
  const sent = expectStatus(await invoiceAction(h, draft.id, 'send'), 200)
  t.type(sent.sentAt, 'string')
  expectStatus(await invoiceAction(h, draft.id, 'send'), 200)
  const messages = await eventually(
    () => messagesOf(draft.id, 'invoice.sent'),
    (m) => m.length === 2,
    'two invoice.sent',
  )
  t.same(messages.map((m) => m.payload.data.sendNumber).sort(), [1, 2])
})

t.test('payments: partial ones accumulate, the covering one pays once, an excess goes to the balance', async (t) => {
  const before = BigInt(await availableOf(h, balance))
  const invoice = await openInvoice(h, payee)
  const first = expectStatus<{ matched: boolean; credited: boolean; invoice: Invoice }>(
    await simulatePayment(h, invoice.id, '2000', 'dep-a'),
    200,
  )
  t.match(first, {
    matched: true,
    credited: true,
    invoice: { status: 'OPEN', paymentState: 'PARTIALLY_PAID', amountRemaining: { value: '3000' } },
  })
  const replay = expectStatus<{ matched: boolean; credited: boolean; invoice: Invoice }>(
    await simulatePayment(h, invoice.id, '2000', 'dep-a'),
    200,
  )
  t.match(replay, { matched: true, credited: false, invoice: { amountPaid: { value: '2000' } } }, 'the same deposit counts once')
  t.match(expectStatus(await simulatePayment(h, invoice.id, '2500', 'dep-a'), 409), { code: 'reference_reused' })
  const second = expectStatus<{ invoice: Invoice }>(await simulatePayment(h, invoice.id, '3500', 'dep-b'), 200)
  t.match(second.invoice, {
    status: 'PAID',
    paymentState: 'OVERPAID',
    amountPaid: { value: '5500' },
    amountRemaining: { value: '0' },
    payments: [
      { depositReference: 'dep-a', applied: { value: '2000' } },
      { depositReference: 'dep-b', applied: { value: '3000' }, excess: { value: '500' } },
    ],
  })
  t.equal(BigInt(await availableOf(h, balance)) - before, 5500n, 'the whole 55.00 credited, the excess included')
  const paid = await eventually(
    () => messagesOf(invoice.id, 'invoice.paid'),
    (m) => m.length === 1,
    'invoice.paid',
  )
  const data = paid[0]!.payload.data
  t.same(Object.keys(data).sort(), ['amount', 'createdAt', 'currency', 'customerId', 'id', 'paidAt', 'status'], "exactly the spec's fields")
  t.match(data, { id: invoice.id, customerId: payee, amount: '5000', currency: 'USD', status: 'PAID' })
  const late = expectStatus<{ matched: boolean; credited: boolean }>(await simulatePayment(h, invoice.id, '700', 'dep-c'), 200)
  t.match(late, { matched: false, credited: true }, 'a deposit for a PAID invoice goes to the balance, unmatched')
  t.equal((await messagesOf(invoice.id, 'invoice.paid')).length, 1, 'invoice.paid once')

  type Entry = { cause: { type: string; id: string }; amount: { value: string }; description: string; invoiceId: string | null }
  const history = expectStatus<{ data: Entry[] }>(
    await h.request({ method: 'GET', url: `/v1/accounts/${balance}/balance/transactions?page_size=100` }),
    200,
  )
  const ofInvoice = history.data.filter((e) => e.cause.type === 'INVOICE_PAYMENT' && e.cause.id === invoice.id)
  t.same(ofInvoice.map((e) => e.amount.value).sort(), ['2000', '3500', '700'], 'each deposit in the history, naming the invoice')
  t.ok(
    ofInvoice.some((e) => e.description.includes('not applied')),
    'the unmatched one says so',
  )
  t.ok(
    ofInvoice.every((e) => e.invoiceId === invoice.id),
    'each names the invoice in invoiceId',
  )
})

t.test('a deposit for a DRAFT or CANCELLED invoice goes to the balance unmatched, and stays so when replayed', async (t) => {
  const draft = expectStatus(await createInvoice(h, invoiceBody(payee)), 201)
  const early = expectStatus<{ matched: boolean; invoice: Invoice }>(await simulatePayment(h, draft.id, '5000', 'dep-early'), 200)
  t.match(early, { matched: false, invoice: { status: 'DRAFT', amountPaid: { value: '0' } } })
  expectStatus(await invoiceAction(h, draft.id, 'finalize'), 200)
  const replay = expectStatus<{ matched: boolean; credited: boolean; invoice: Invoice }>(
    await simulatePayment(h, draft.id, '5000', 'dep-early'),
    200,
  )
  t.match(replay, { matched: false, credited: false, invoice: { status: 'OPEN', paymentState: 'UNPAID' } }, 'not taken on a replay')
  expectStatus(await invoiceAction(h, draft.id, 'cancel'), 200)
  t.match(expectStatus(await simulatePayment(h, draft.id, '100'), 200), { matched: false, credited: true })
})

t.test('the balance account cannot close while an OPEN invoice pays into it', async (t) => {
  const customer = await approvedCustomer(h, ['USD_BALANCE'])
  const account = await usdBalance(h, customer)
  const invoice = await openInvoice(h, customer)
  const close = () => h.request({ method: 'POST', url: `/v1/accounts/${account}/close` })
  t.match(expectStatus(await close(), 409), { code: 'account_has_open_invoices' })
  expectStatus(await invoiceAction(h, invoice.id, 'cancel'), 200)
  expectStatus(await close(), 200)
  t.match(expectStatus(await simulatePayment(h, invoice.id, '100'), 409), { code: 'account_closed' }, 'nothing credited anywhere')
})

t.test('the list: filters, cursor pages, 404 for an unknown customer filter, 422 for a foreign cursor', async (t) => {
  const customer = await approvedCustomer(h, ['USD_BALANCE'])
  await usdBalance(h, customer)
  const draft = expectStatus(await createInvoice(h, invoiceBody(customer, { dueDate: '2026-12-01' })), 201)
  const open = await openInvoice(h, customer, { dueDate: '2026-12-20' })
  const paid = await openInvoice(h, customer, { dueDate: '2027-01-10' })
  expectStatus(await simulatePayment(h, paid.id, '5000'), 200)
  const list = async (query: string) =>
    expectStatus<Page>(await h.request({ method: 'GET', url: `/v1/invoices?customerId=${customer}&${query}` }), 200).data.map((i) => i.id)
  t.same(await list(''), [paid.id, open.id, draft.id], 'newest first')
  t.same(await list('status=OPEN'), [open.id])
  t.same(await list('paymentState=PAID'), [paid.id])
  t.same(await list('paymentState=UNPAID&status=DRAFT'), [draft.id])
  t.same(await list('dueDateFrom=2026-12-02&dueDateTo=2026-12-31'), [open.id])
  t.same(await list('overdue=true'), [])
  const first = expectStatus<Page>(await h.request({ method: 'GET', url: `/v1/invoices?customerId=${customer}&page_size=2` }), 200)
  t.equal(first.has_more, true)
  const next = expectStatus<Page>(await h.request({ method: 'GET', url: first.page_next! }), 200)
  t.same(
    next.data.map((i) => i.id),
    [draft.id],
  )
  t.equal((await h.request({ method: 'GET', url: '/v1/invoices?customerId=cus_00000000000000000000000000' })).statusCode, 404)
  const foreign = await h.request({ method: 'GET', url: '/v1/invoices?starting_after=inv_00000000000000000000000000' })
  t.match(expectStatus(foreign, 422), { code: 'invalid_cursor' })
})

t.test('the hosted page: HTML showing what to pay and how, every value escaped', async (t) => {
  const invoice = await openInvoice(h, payee, { payer: { name: '<script>alert(1)</script>', email: 'x@example.com' } })
  const page = await h.request({ method: 'GET', url: `/v1/invoices/${invoice.id}/hosted` })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /^text\/html/)
  t.ok(page.body.includes(invoice.paymentInstructions!.reference), 'the payment reference')
  t.ok(page.body.includes('50.00 USD'), 'the amount due')
  t.notOk(page.body.includes('<script>'), 'the payer name escaped')
  t.ok(page.body.includes('&lt;script&gt;'))
})

t.test('another organization sees none of it: 404 on every invoice route, an empty list', async (t) => {
  const invoice = await openInvoice(h, payee)
  const other = (await h.newOrganization()).apiKey
  for (const [method, url] of [
    ['GET', `/v1/invoices/${invoice.id}`],
    ['GET', `/v1/invoices/${invoice.id}/hosted`],
    ['POST', `/v1/invoices/${invoice.id}/cancel`],
    ['POST', `/v1/sandbox/invoices/${invoice.id}/simulate-payment`],
  ] as const) {
    const payload = url.endsWith('simulate-payment') ? { amount: '100' } : undefined
    const res = await h.request({ method, url, apiKey: other, ...(payload ? { payload } : {}) })
    t.equal(res.statusCode, 404, `${method} ${url}`)
  }
  t.same(expectStatus<Page>(await h.request({ method: 'GET', url: '/v1/invoices', apiKey: other }), 200).data, [])
  t.match(expectStatus(await getInvoice(h, invoice.id), 200), { status: 'OPEN', amountPaid: { value: '0' } }, 'unchanged')
})
