// Transfers created through HTTP, end to end: an APPROVED sender (verified through the API and the
// sandbox review) sends USD over ACH to its bank account; every request plans a deposit-funded
// transfer (sender, account and capability checks, pricing, legs, schedule) and appends it, and the
// answer waits for the read models (read-your-writes) and the funding workflow.
import type { ServerChild } from './child.js'
import type { HttpTarget } from './httpBench.js'

export const TRANSFER_CREATE_BENCH_PLAN = { seconds: 10 } as const
/** Issue 25 (issue 13 asked 0.5): inline projections, the create waits only for the funding workflow it shows. */
export const TRANSFER_CREATE_TARGETS = { createToToyRatio: 0.35 } as const

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('bench-png')]).toString('base64')
const CAPABILITIES = ['USD_ACH_PAYIN', 'USD_ACH_PAYOUT']

async function call(
  api: ServerChild,
  auth: Record<string, string>,
  path: string,
  body: object,
  expected: number,
): Promise<{ id?: string }> {
  const response = await fetch(`${api.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (response.status !== expected) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as { id?: string }
}

/** A customer verified through the API and APPROVED by the sandbox review, with `capabilities`. */
export async function approvedCustomer(api: ServerChild, auth: Record<string, string>, capabilities = CAPABILITIES): Promise<string> {
  const { id } = await call(
    api,
    auth,
    '/v1/customers/individuals',
    { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    201,
  )
  const upload = async () =>
    (await call(api, auth, '/v1/documents', { customerId: id, fileName: 'id.png', contentType: 'image/png', content: PNG }, 201)).id
  const [front, back, selfie] = [await upload(), await upload(), await upload()]
  await call(
    api,
    auth,
    `/v1/customers/${id}/verification?submit=true`,
    {
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
      requestedCapabilities: capabilities,
    },
    200,
  )
  await call(api, auth, `/v1/sandbox/customers/${id}/simulate-review`, { outcome: 'APPROVED' }, 202)
  return id!
}

/** POST /v1/transfers: an ACH deposit paid out to the sender's own bank account over ACH. */
export async function transferCreateTarget(api: ServerChild, auth: Record<string, string>): Promise<HttpTarget> {
  const sender = await approvedCustomer(api, auth)
  const bank = await call(
    api,
    auth,
    '/v1/external-bank-accounts',
    { customerId: sender, accountOwnerName: 'Ada Lovelace', accountNumber: '000123456789', routingNumber: '021000021' },
    201,
  )
  const body = JSON.stringify({
    sourceCustomerId: sender,
    source: { paymentRail: 'ACH', currency: 'USD' },
    destination: { accountId: bank.id, paymentRail: 'ACH' },
    sourceAmount: '10000',
    clientReferenceId: 'bench',
  })
  return { url: api.baseUrl, paths: ['/v1/transfers'], method: 'POST', headers: auth, body }
}
