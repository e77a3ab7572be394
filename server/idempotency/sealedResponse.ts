// An idempotent request's stored response, sealed: a response can hold a phone number or a
// signing secret. Sealed as bytes (a body may be up to 1 MB) with the organization's data key:
// the record is the organization's own answer, kept 24 hours, and one key per organization stays
// cached, so a POST pays one AES-GCM seal and no extra row. The record (associated data) names
// the organization and the key, so a stored body cannot be replayed under another key.
import type { DataProtection } from '../../events/protection/dataProtection.js'

export type ResponseRecord = { organizationId: string; key: string }

const subjectOf = (r: ResponseRecord) => r.organizationId
const recordOf = (r: ResponseRecord) => `idempotency-${r.organizationId}-${r.key}`

export const sealResponse = (protection: DataProtection, r: ResponseRecord, body: string): Promise<Buffer> =>
  protection.sealContent(subjectOf(r), recordOf(r), Buffer.from(body, 'utf8'))

/** The stored body: opened when sealed, as stored when kept in clear (a record from before sealing). */
export async function openResponse(
  protection: DataProtection,
  r: ResponseRecord,
  stored: { response_sealed: Buffer | null; response_body: string | null },
): Promise<string> {
  if (stored.response_sealed === null) return stored.response_body ?? ''
  const body = await protection.openContent(subjectOf(r), recordOf(r), stored.response_sealed)
  if (body === undefined) throw new Error('the stored idempotent response can no longer be opened (its data key was shredded)')
  return body.toString('utf8')
}
