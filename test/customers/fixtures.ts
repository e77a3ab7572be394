// Shared helpers of the customer tests: create customers, upload documents, a complete verification.
import type { Client } from '../harness/httpClient.js'
import type { TestApp } from '../harness/testApp.js'

export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('png-body-bytes')])
export const PDF = Buffer.from('%PDF-1.7\n% test document\n')

type Key = { apiKey?: string }

export async function createIndividual(h: Client, body: Record<string, unknown> = {}, opts: Key = {}) {
  const res = await h.request({
    method: 'POST',
    url: '/v1/customers/individuals',
    payload: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', ...body },
    ...opts,
  })
  if (res.statusCode !== 201) throw new Error(`create individual: ${res.statusCode} ${res.body}`)
  return res.json() as { id: string; status: string; customerName: string }
}

export async function createBusiness(h: Client, body: Record<string, unknown> = {}, opts: Key = {}) {
  const res = await h.request({
    method: 'POST',
    url: '/v1/customers/businesses',
    payload: { businessName: 'Acme Ltd', email: 'ops@acme.example', countryCode: 'US', ...body },
    ...opts,
  })
  if (res.statusCode !== 201) throw new Error(`create business: ${res.statusCode} ${res.body}`)
  return res.json() as { id: string; status: string }
}

export async function upload(h: Client, customerId?: string, bytes: Buffer = PNG, contentType = 'image/png', opts: Key = {}) {
  const res = await h.request({
    method: 'POST',
    url: '/v1/documents',
    ...opts,
    payload: { ...(customerId ? { customerId } : {}), fileName: 'file.bin', contentType, content: bytes.toString('base64') },
  })
  if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`)
  return (res.json() as { id: string }).id
}

export const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)

/** Everything the base package needs for a US resident (no proof of address needed). */
export async function completeIndividualBody(h: Client, customerId: string) {
  const front = await upload(h, customerId)
  const back = await upload(h, customerId)
  const selfie = await upload(h, customerId)
  return {
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
  }
}

export const saveVerification = (h: TestApp, id: string, body: unknown, submit?: boolean, opts: Key = {}) =>
  h.request({
    method: 'POST',
    url: `/v1/customers/${id}/verification${submit === undefined ? '' : `?submit=${submit}`}`,
    payload: body as object,
    ...opts,
  })

export const fieldsOf = (body: { details?: { field: string }[] }) => (body.details ?? []).map((d) => d.field)
