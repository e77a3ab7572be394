// One whole flow through the SDK against a listening service: a webhook endpoint, a customer taken through
// the full onboarding (documents, verification, sandbox review), a balance account funded in the sandbox, a
// payout driven to COMPLETED with the sandbox routes, its transfer.completed webhook received by a local
// server and verified with verifyWebhook; with an idempotent replay, a typed error and list walks on the way.
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { PaymentsApiError, createPaymentsClient, verifyWebhook } from '../../sdk/src/index.js'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER } from '../webhooks/deliveryHelpers.js'
import { startReceiver } from '../webhooks/deliveryReceiver.js'

const MAX_ADVANCE_STEPS = 12
const WEBHOOK_WAIT_MS = 15_000

const h = await startTestApp(t, { WEBHOOK_RETRY_SCHEDULE_MS: '0,20' }, { webhooks: { tuning: FAST_DISPATCHER } })
await h.app.listen({ port: 0, host: '127.0.0.1' })
const { port } = h.app.server.address() as AddressInfo
const receiver = await startReceiver()
t.teardown(() => receiver.close())

const client = createPaymentsClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: h.org.apiKey })
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('sdk-test-image')]).toString('base64')

t.test('customer to COMPLETED transfer to verified webhook, through the SDK', async (t) => {
  const { data: endpoint } = await client.POST('/v1/webhooks/endpoints', { body: { url: receiver.url('/hooks') } })
  const {
    data: { secret },
  } = await client.GET('/v1/webhooks/endpoints/{endpointId}/secret', { params: { path: { endpointId: endpoint.id } } })
  t.match(secret, /^whsec_/, 'the endpoint signing secret')

  // Onboarding, the full path: a customer, three documents, a complete verification, the sandbox review.
  const { data: customer } = await client.POST('/v1/customers/individuals', {
    body: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  })
  const upload = async () =>
    (
      await client.POST('/v1/documents', {
        body: { customerId: customer.id, fileName: 'id.png', contentType: 'image/png', content: png },
      })
    ).data.id
  const [front, back, selfie] = [await upload(), await upload(), await upload()]
  await client.POST('/v1/customers/{id}/verification', {
    params: { path: { id: customer.id }, query: { submit: 'true' } },
    body: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+14155550123',
      dateOfBirth: '1990-12-10',
      nationality: 'US',
      taxIdentificationNumber: '123-45-6789',
      address: { addressLine1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
      governmentId: { type: 'DRIVERS_LICENSE', idNumber: 'D1234567', issuingCountry: 'US', frontImage: front, backImage: back },
      supportingDocuments: [{ file: selfie, type: 'SELFIE' }],
      hasAgreedToTos: true,
      requestedCapabilities: ['USD_BALANCE', 'USD_ACH_PAYOUT'],
    },
  })
  const { data: review } = await client.POST('/v1/sandbox/customers/{id}/simulate-review', {
    params: { path: { id: customer.id } },
    body: { outcome: 'APPROVED' },
  })
  t.equal(review.status, 'APPROVED', 'the customer is approved')

  // A balance account: created once, whatever the number of sends with one idempotency key.
  const once = { params: { header: { 'idempotency-key': `sdk-flow-${customer.id}` } }, body: { customerId: customer.id } }
  const { data: account } = await client.POST('/v1/balance-accounts', once)
  const { data: again, response: replay } = await client.POST('/v1/balance-accounts', once)
  t.equal(again.id, account.id, 'the same key answers the same account')
  t.equal(replay.headers.get('idempotent-replayed'), 'true', 'from the idempotency record')
  await client.POST('/v1/sandbox/accounts/{id}/fund-in', { params: { path: { id: account.id } }, body: { amount: '1000.00' } })

  const { data: bank } = await client.POST('/v1/external-bank-accounts', {
    body: {
      customerId: customer.id,
      accountOwnerName: 'Ada Lovelace',
      bankName: 'Chase',
      accountNumber: '000123456789',
      routingNumber: '021000021',
    },
  })
  const { data: created } = await client.POST('/v1/transfers', {
    body: {
      sourceCustomerId: customer.id,
      sourceAmount: '10000',
      source: { accountId: account.id },
      destination: { accountId: bank.id, paymentRail: 'ACH' },
    },
  })
  t.equal(created.status, 'PROCESSING', 'funded from the balance at once')

  // The sandbox rails, step by step; a step the workflow took meanwhile is a typed 409.
  let status: string = created.status
  for (let step = 0; step < MAX_ADVANCE_STEPS && status !== 'COMPLETED'; step++) {
    try {
      status = (await client.POST('/v1/sandbox/transfers/{id}/advance', { params: { path: { id: created.id } } })).data.status
    } catch (error) {
      if (!(error instanceof PaymentsApiError) || error.code !== 'transfer_not_advanceable') throw error
      status = (await client.GET('/v1/transfers/{id}', { params: { path: { id: created.id } } })).data.status
    }
  }
  t.equal(status, 'COMPLETED', 'the transfer completed')

  // Its webhook, as a receiver gets it, verified with the SDK's helper.
  await receiver.waitFor(
    (requests) => requests.some((r) => r.body.includes('"transfer.completed"') && r.body.includes(created.id)),
    WEBHOOK_WAIT_MS,
    'transfer.completed',
  )
  const delivery = receiver.forPath('/hooks').find((r) => r.body.includes('"transfer.completed"') && r.body.includes(created.id))!
  const event = await verifyWebhook(delivery.body, delivery.headers, secret)
  t.equal(event.type, 'transfer.completed')
  t.match(event.data, { id: created.id, status: 'COMPLETED' })
  t.equal(event.id, delivery.headers['webhook-id'], 'the event id is the webhook-id')
  await t.rejects(verifyWebhook(delivery.body.replace('COMPLETED', 'FAILED'), delivery.headers, secret), {
    name: 'WebhookVerificationError',
    reason: 'invalid_signature',
  })

  // Lists walked page by page: the customer's transfers, and the messages one per page.
  const transfers: string[] = []
  for await (const transfer of client.paginate('/v1/transfers', { query: { customerId: customer.id, page_size: 1 } })) {
    transfers.push(transfer.id)
  }
  t.same(transfers, [created.id], "the customer's one transfer")
  const messageTypes: string[] = []
  for await (const message of client.paginate('/v1/webhooks/messages', { query: { page_size: 2 } })) messageTypes.push(message.type)
  t.ok(messageTypes.length > 2, `several pages of messages (${messageTypes.length})`)
  t.ok(messageTypes.includes('transfer.completed'), 'transfer.completed among them')
})

t.test('errors are typed: status, code, message, requestId; 401 without code', async (t) => {
  const missing = await client.GET('/v1/transfers/{id}', { params: { path: { id: 'tfr_doesnotexist' } } }).catch((e: unknown) => e)
  t.ok(missing instanceof PaymentsApiError)
  t.match(missing, { status: 404, message: /./, requestId: /./ })
  const stranger = createPaymentsClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'sk_sandbox_notakey' })
  const unauthorized = await stranger.GET('/v1/transfers').catch((e: unknown) => e)
  t.match(unauthorized, { name: 'PaymentsApiError', status: 401, code: undefined })
})
