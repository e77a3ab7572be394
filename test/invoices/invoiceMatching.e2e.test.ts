// Invoice payments under load and over time, through HTTP against real Postgres (issue 28): 20
// concurrent payments pay an invoice once (the same deposit 20 times, and 20 deposits of the whole
// amount); fixed-route deposits carrying the invoice's reference pay it (and only when the route is the
// payee's and sweeps into the invoice's account); the workflow credits a payment whose credit a crash
// cut off; the overdue timer on a test clock sends invoice.overdue exactly once, OPEN stays OPEN.
import t from 'tap'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { invoiceStreamOf } from '../../commands/invoices/invoiceCommands.js'
import { invoiceDecider } from '../../domain/invoice/decider.js'
import { startTestApp } from '../harness/testApp.js'
import { fixedRoute, swept } from '../fixed-routes/fixedRouteWorld.js'
import { approvedCustomer, availableOf, eventually, usdBalance } from '../transfers/transferWorld.js'
import { type Invoice, expectStatus, getInvoice, invoiceAction, openInvoice, simulatePayment } from './invoiceWorld.js'

let now = new Date('2026-11-28T10:00:00.000Z')
const h = await startTestApp(t, {}, { clock: () => now, webhooks: { dispatcher: false } })
const payee = await approvedCustomer(h)
const balance = await usdBalance(h, payee)
const log = {
  error: (obj: object, msg: string) => {
    throw new Error(`${msg}: ${JSON.stringify(obj)}`)
  },
}

type Message = { payload: { type: string; data: Record<string, unknown> } }
const messagesOf = async (tag: string, type: string) =>
  ((await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${tag}&eventTypes=${type}` })).json() as { data: Message[] }).data

/** Waits until every consumer (the timers among them) passed the invoice's last event, then runs what is due at `now`. */
async function tick(invoiceId: string): Promise<void> {
  const stream = invoiceStreamOf(invoiceId)
  const last = (await h.runtime.store.readStream(stream)).at(-1)
  if (!(await h.runtime.runner.waitFor(last?.position, 10_000))) throw new Error(`consumers did not pass ${stream}`)
  await runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: () => now })
  const after = (await h.runtime.store.readStream(stream)).at(-1)
  await h.runtime.runner.waitFor(after?.position, 10_000)
}

t.test('the same deposit 20 times at once: applied and credited once', async (t) => {
  const before = BigInt(await availableOf(h, balance))
  const invoice = await openInvoice(h, payee)
  const replies = await Promise.all(Array.from({ length: 20 }, () => simulatePayment(h, invoice.id, '5000', 'dep-twenty')))
  t.same(
    replies.map((r) => r.statusCode),
    Array(20).fill(200),
  )
  const credited = replies.filter((r) => (r.json() as { credited: boolean }).credited)
  t.equal(credited.length, 1, 'one of them credited')
  t.match(expectStatus(await getInvoice(h, invoice.id), 200), { status: 'PAID', paymentState: 'PAID', amountPaid: { value: '5000' } })
  t.equal(BigInt(await availableOf(h, balance)) - before, 5000n, 'the balance took it once')
  const paid = await eventually(
    () => messagesOf(invoice.id, 'invoice.paid'),
    (m) => m.length === 1,
    'invoice.paid',
  )
  t.equal(paid.length, 1)
})

t.test('20 deposits of the whole amount at once: the invoice is paid once, the other 19 go to the balance unmatched', async (t) => {
  const before = BigInt(await availableOf(h, balance))
  const invoice = await openInvoice(h, payee)
  const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => simulatePayment(h, invoice.id, '5000', `dep-many-${i}`)))
  const outcomes = replies.map((r) => expectStatus<{ matched: boolean; credited: boolean }>(r, 200))
  t.equal(outcomes.filter((o) => o.matched).length, 1, 'one deposit paid the invoice')
  t.ok(
    outcomes.every((o) => o.credited),
    'every deposit credited',
  )
  const read = expectStatus(await getInvoice(h, invoice.id), 200)
  t.match(read, { status: 'PAID', amountPaid: { value: '5000' } })
  t.equal(read.payments.length, 1)
  t.equal(BigInt(await availableOf(h, balance)) - before, 100_000n, 'all 20 deposits are in the balance')
  await eventually(
    () => messagesOf(invoice.id, 'invoice.paid'),
    (m) => m.length === 1,
    'invoice.paid',
  )
  await new Promise((resolve) => setTimeout(resolve, 300))
  t.equal((await messagesOf(invoice.id, 'invoice.paid')).length, 1, 'invoice.paid exactly once')
})

t.test('fixed-route deposits carrying the invoice reference pay it, 20 at once paying it once', async (t) => {
  const route = await fixedRoute(h, payee, { sourceCurrency: 'USD', sweepTargetAccountId: balance })
  const invoice = await openInvoice(h, payee)
  const reference = invoice.paymentInstructions!.reference
  const part = await swept(h, route.id, { amount: '20.00', reference: 'wire-001', paymentReference: reference })
  t.equal((part as unknown as { invoiceId: string | null }).invoiceId, invoice.id, 'the deposit names the invoice it paid')
  t.match(expectStatus(await getInvoice(h, invoice.id), 200), {
    status: 'OPEN',
    paymentState: 'PARTIALLY_PAID',
    payments: [{ source: 'FIXED_ROUTE', depositReference: part.transferId, amount: { value: '2000' } }],
  })
  type Entry = { cause: { type: string; id: string }; invoiceId: string | null }
  const history = expectStatus<{ data: Entry[] }>(
    await h.request({ method: 'GET', url: `/v1/accounts/${balance}/balance/transactions?limit=100` }),
    200,
  )
  t.match(
    history.data.find((e) => e.cause.id === part.transferId),
    { cause: { type: 'TRANSFER' }, invoiceId: invoice.id },
    "the sweep's entry in the balance history names the invoice it paid",
  )
  const again = await swept(h, route.id, { amount: '20.00', reference: 'wire-001', paymentReference: reference })
  t.equal(again.transferId, part.transferId, 'the same deposit again: the same sweep')
  t.match(expectStatus(await getInvoice(h, invoice.id), 200), { amountPaid: { value: '2000' } }, 'counted once')
  // 20 deposits of 30.00 at once, each its own (a rail's id), all carrying the invoice's reference; the first of them in its
  // own reference field, as a payer may put it.
  const rest = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      swept(
        h,
        route.id,
        i === 0 ? { amount: '30.00', reference } : { amount: '30.00', reference: `wire-${i}`, paymentReference: reference },
      ),
    ),
  )
  const named = rest.filter((s) => (s as unknown as { invoiceId: string | null }).invoiceId === invoice.id)
  t.equal(named.length, 1, 'one of them paid the rest')
  const read = expectStatus(await getInvoice(h, invoice.id), 200)
  t.match(read, { status: 'PAID' })
  t.equal(read.payments.length, 2)
  const transfers = await Promise.all(rest.map((s) => h.request({ method: 'GET', url: `/v1/transfers/${s.transferId}` })))
  t.ok(
    transfers.every((r) => (r.json() as { status: string }).status === 'COMPLETED'),
    'every deposit was swept into the balance',
  )
  await eventually(
    () => messagesOf(invoice.id, 'invoice.paid'),
    (m) => m.length === 1,
    'invoice.paid',
  )

  const other = await approvedCustomer(h)
  await usdBalance(h, other)
  const foreign = await openInvoice(h, other)
  const unmatched = await swept(h, route.id, { amount: '50.00', paymentReference: foreign.paymentInstructions!.reference })
  t.equal((unmatched as unknown as { invoiceId: string | null }).invoiceId, null, "another customer's invoice is not paid by this route")
  t.match(expectStatus(await getInvoice(h, foreign.id), 200), { paymentState: 'UNPAID' })
  const elsewhere = await fixedRoute(h, payee, { sourceCurrency: 'USD', sweepTargetAccountId: await usdBalance(h, payee) })
  const third = await openInvoice(h, payee)
  const notInto = await swept(h, elsewhere.id, { amount: '50.00', paymentReference: third.paymentInstructions!.reference })
  t.equal(
    (notInto as unknown as { invoiceId: string | null }).invoiceId,
    null,
    "a route sweeping into another account: not the invoice's money",
  )
})

t.test('a payment applied without its credit (a crash between them): the workflow credits it, once', async (t) => {
  const invoice = await openInvoice(h, payee)
  const before = BigInt(await availableOf(h, balance))
  const origin = { organizationId: h.org.organizationId, requestId: 'req_crash_gap', actor: 'test' }
  await h.runtime.commands.handle(
    invoiceDecider,
    invoiceStreamOf(invoice.id),
    {
      type: 'ApplyInvoicePayment',
      organizationId: h.org.organizationId,
      invoiceId: invoice.id,
      currency: 'USD',
      amountMinor: '1200',
      depositReference: 'dep-crash',
      source: 'SIMULATION',
      now: now.toISOString(),
    },
    origin,
  )
  await eventually(
    async () => BigInt(await availableOf(h, balance)) - before,
    (delta) => delta === 1200n,
    'the workflow credited the payment',
  )
  const replay = expectStatus<{ matched: boolean; credited: boolean }>(await simulatePayment(h, invoice.id, '1200', 'dep-crash'), 200)
  t.match(replay, { matched: true, credited: false }, 'the payer retrying: nothing twice')
  t.equal(BigInt(await availableOf(h, balance)) - before, 1200n)
})

t.test('overdue on the test clock: invoice.overdue once at the due date, the status stays OPEN', async (t) => {
  const late = await openInvoice(h, payee, { dueDate: '2026-12-15' })
  const paidInTime = await openInvoice(h, payee, { dueDate: '2026-12-15' })
  expectStatus(await simulatePayment(h, paidInTime.id, '5000'), 200)
  await tick(late.id)
  now = new Date('2026-12-15T23:59:59.000Z')
  await tick(late.id)
  t.match(expectStatus(await getInvoice(h, late.id), 200), { overdue: false }, 'due through its due date')
  now = new Date('2026-12-16T00:00:01.000Z')
  await tick(late.id)
  await tick(paidInTime.id)
  const overdue = expectStatus(await getInvoice(h, late.id), 200)
  t.match(overdue, { status: 'OPEN', overdue: true, paymentState: 'UNPAID' })
  const list = expectStatus<{ data: Invoice[] }>(
    await h.request({ method: 'GET', url: `/v1/invoices?overdue=true&customerId=${payee}` }),
    200,
  )
  const listed = list.data.map((i) => i.id)
  t.ok(listed.includes(late.id) && !listed.includes(paidInTime.id), 'the overdue filter lists the late one, not the paid one')
  t.ok(
    list.data.every((i) => i.overdue && i.status === 'OPEN'),
    'only overdue OPEN invoices',
  )
  now = new Date('2026-12-20T00:00:00.000Z')
  await tick(late.id)
  const messages = await eventually(
    () => messagesOf(late.id, 'invoice.overdue'),
    (m) => m.length >= 1,
    'invoice.overdue',
  )
  t.equal(messages.length, 1, 'exactly once')
  t.match(messages[0]!.payload.data, { id: late.id, status: 'OPEN', overdue: true, dueDate: '2026-12-15', amountRemaining: '5000' })
  t.same(await messagesOf(paidInTime.id, 'invoice.overdue'), [], 'a paid invoice is never overdue')
  const settled = expectStatus<{ invoice: Invoice }>(await simulatePayment(h, late.id, '5000'), 200)
  t.match(settled.invoice, { status: 'PAID', overdue: false }, 'paid late: no longer overdue')
  expectStatus(await invoiceAction(h, late.id, 'cancel'), 409, 'a PAID invoice is not cancelled')
})
