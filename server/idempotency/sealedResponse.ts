// An idempotent request's stored response, sealed: a response can hold a phone number or a
// signing secret. Sealed as bytes (a body may be up to 1 MB) with the data key of the customer it
// is about (named in its path, or the id the response returns), so erasing that customer makes it
// unreadable at once; otherwise with the organization's key. Either key stays cached, so a POST pays
// one AES-GCM seal and no extra row. The record (associated data) names the organization and the
// Idempotency-Key, so a stored body cannot be replayed under another key.
import type { Kysely } from 'kysely'
import { conflict } from '../../domain/errors.js'
import { SubjectErasedError } from '../../events/protection/dataKeys.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import type { ReadDatabase } from '../../projections/schema.js'

export type ResponseRecord = { organizationId: string; key: string }

const recordOf = (r: ResponseRecord) => `idempotency-${r.organizationId}-${r.key}`

const CUSTOMER_ID = /^cus_[0-9a-z]{26}$/
const CUSTOMER_IN_PATH = /^\/v1\/customers\/(cus_[0-9a-z]{26})(?:[/?]|$)/

/** The customer a response is about: from the request path, else the customer the response names. */
export function customerOfResponse(url: string, body: string): string | undefined {
  const inPath = CUSTOMER_IN_PATH.exec(url)?.[1]
  if (inPath) return inPath
  try {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed !== 'object' || parsed === null) return undefined
    const { id, customerId } = parsed as { id?: unknown; customerId?: unknown }
    for (const candidate of [customerId, id]) if (typeof candidate === 'string' && CUSTOMER_ID.test(candidate)) return candidate
  } catch {
    // Not JSON: about no customer.
  }
  return undefined
}

/** The stored columns: the body sealed, and whose key sealed it (null: the organization's). */
export async function sealResponse(
  protection: DataProtection,
  r: ResponseRecord,
  url: string,
  body: string,
): Promise<{ response_sealed: Buffer; response_subject: string | null }> {
  const content = Buffer.from(body, 'utf8')
  const customer = customerOfResponse(url, body)
  if (customer) {
    try {
      return { response_sealed: await protection.sealContent(customer, recordOf(r), content), response_subject: customer }
    } catch (error) {
      // A refusal about an erased customer holds none of their data: the organization's key does.
      if (!(error instanceof SubjectErasedError)) throw error
    }
  }
  return { response_sealed: await protection.sealContent(r.organizationId, recordOf(r), content), response_subject: null }
}

/** The stored body: opened when sealed, as stored when kept in clear (a record from before sealing). */
export async function openResponse(
  protection: DataProtection,
  r: ResponseRecord,
  stored: { response_sealed: Buffer | null; response_body: string | null; response_subject: string | null },
): Promise<string> {
  if (stored.response_sealed === null) return stored.response_body ?? ''
  const subject = stored.response_subject ?? r.organizationId
  const body = await protection.openContent(subject, recordOf(r), stored.response_sealed)
  if (body === undefined)
    throw conflict('customer_erased', `The response stored for this Idempotency-Key was about ${subject}, whose data was erased`)
  return body.toString('utf8')
}

/** Rows read per statement by `sealStoredResponses`. */
export const SEAL_RESPONSES_BATCH = 500

/**
 * Seals the responses stored in clear before issue 11 (the CLI's `data seal-existing`); each row
 * is written only if still in clear, so a second run, or a replay meanwhile, changes nothing.
 */
export async function sealStoredResponses(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
): Promise<{ scanned: number; sealed: number }> {
  const counts = { scanned: 0, sealed: 0 }
  for (;;) {
    const rows = await db
      .selectFrom('idempotency_keys')
      .select(['organization_id', 'key', 'response_body'])
      .where('response_body', 'is not', null)
      .where('response_sealed', 'is', null)
      .limit(SEAL_RESPONSES_BATCH)
      .execute()
    if (rows.length === 0) return counts
    counts.scanned += rows.length
    for (const row of rows) {
      const record = { organizationId: row.organization_id, key: row.key }
      // The request's path is not kept: the customer comes from the response alone.
      const columns = await sealResponse(protection, record, '', row.response_body ?? '')
      const result = await db
        .updateTable('idempotency_keys')
        .set({ ...columns, response_body: null })
        .where('organization_id', '=', row.organization_id)
        .where('key', '=', row.key)
        .where('response_body', '=', row.response_body)
        .where('response_sealed', 'is', null)
        .executeTakeFirst()
      counts.sealed += Number(result.numUpdatedRows)
    }
  }
}
