// An idempotent request's stored response, sealed: a response can hold a phone number or a
// signing secret. Sealed as bytes (a body may be up to 1 MB) with the organization's data key:
// the record is the organization's own answer, kept 24 hours, and one key per organization stays
// cached, so a POST pays one AES-GCM seal and no extra row. The record (associated data) names
// the organization and the key, so a stored body cannot be replayed under another key.
import type { Kysely } from 'kysely'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import type { ReadDatabase } from '../../projections/schema.js'

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
      const result = await db
        .updateTable('idempotency_keys')
        .set({ response_sealed: await sealResponse(protection, record, row.response_body ?? ''), response_body: null })
        .where('organization_id', '=', row.organization_id)
        .where('key', '=', row.key)
        .where('response_body', '=', row.response_body)
        .where('response_sealed', 'is', null)
        .executeTakeFirst()
      counts.sealed += Number(result.numUpdatedRows)
    }
  }
}
