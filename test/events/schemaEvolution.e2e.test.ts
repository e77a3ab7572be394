// An event whose shape changed (issue 29, point 6): InvoiceSent version 1 (issue 28: `delivery` a bare
// method) stored as the old code wrote it, beside version 2 (`delivery: { method }`, `schemaVersion: 2`
// in the metadata). The old event stays stored as written, and still folds (a second send counts on
// from it), projects, becomes its webhook message, and replays through a rebuild and a verify.
import { randomUUID } from 'node:crypto'
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { runCli } from '../cli/fixtures/runCli.js'
import { approvedCustomer, eventually, usdBalance } from '../transfers/transferWorld.js'
import { type Invoice, createInvoice, expectStatus, getInvoice, invoiceAction, invoiceBody } from '../invoices/invoiceWorld.js'

const now = new Date('2026-11-29T10:00:00.000Z')
const h = await startTestApp(t, {}, { clock: () => now, webhooks: { dispatcher: false } })
const env = { DATABASE_URL: h.runtime.databaseUrl }
const payee = await approvedCustomer(h, ['USD_BALANCE'])
await usdBalance(h, payee)

type Message = { payload: { data: { sendNumber: number; sentAt: string } } }
const sentMessages = async (id: string) =>
  ((await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${id}&eventTypes=invoice.sent` })).json() as { data: Message[] }).data

t.test('a version-1 InvoiceSent still folds, projects, publishes and rebuilds beside a version-2 one', async (t) => {
  const draft = expectStatus(await createInvoice(h, invoiceBody(payee)), 201, 'create')
  const open = expectStatus(await invoiceAction(h, draft.id, 'finalize'), 200, 'finalize')
  const stream = `invoice-${open.id}`
  const firstSentAt = '2026-11-27T09:00:00.000Z'
  // As the code of issue 28 stored a send: the bare method, and no version in the metadata.
  const old = await h.runtime.store.appendToStream(
    stream,
    [
      {
        id: randomUUID(),
        type: 'InvoiceSent',
        data: {
          invoiceId: open.id,
          organizationId: h.org.organizationId,
          customerId: payee,
          delivery: 'RECORDED_ONLY',
          sendNumber: 1,
          at: firstSentAt,
        },
        metadata: { organizationId: h.org.organizationId },
      },
    ],
    { expectedRevision: 'stream_exists' },
  )
  t.ok(await h.runtime.runner.waitFor(old.position, 10_000), 'the consumers passed the old event')
  t.equal(expectStatus<Invoice>(await getInvoice(h, open.id), 200).sentAt, firstSentAt, 'the read model took it')
  const first = await eventually(
    () => sentMessages(open.id),
    (m) => m.length === 1,
    'invoice.sent of the old event',
  )
  t.match(first[0]!.payload.data, { sendNumber: 1, sentAt: firstSentAt })

  expectStatus(await invoiceAction(h, open.id, 'send'), 200, 'a second send, decided on the old event')
  const events = await h.runtime.store.readStream(stream)
  const sends = events.filter((e) => e.type === 'InvoiceSent')
  t.same(
    sends.map((e) => [e.data['sendNumber'], e.data['delivery'], e.metadata.schemaVersion]),
    [
      [1, 'RECORDED_ONLY', undefined],
      [2, { method: 'RECORDED_ONLY' }, 2],
    ],
    'the old event is stored as written; the new one in version 2, named in its metadata',
  )
  const both = await eventually(
    () => sentMessages(open.id),
    (m) => m.length === 2,
    'invoice.sent of the new event',
  )
  t.same(both.map((m) => m.payload.data.sendNumber).sort(), [1, 2])

  const rebuild = await runCli(['projections', 'rebuild', 'invoices'], env)
  t.equal(rebuild.code, 0, rebuild.stderr)
  t.equal(expectStatus<Invoice>(await getInvoice(h, open.id), 200).sentAt, now.toISOString(), 'rebuilt over both versions')
  const verify = await runCli(['projections', 'verify'], env)
  t.equal(verify.code, 0, `projections verify: ${verify.stderr}`)
})
