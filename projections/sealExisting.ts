// Seals in place what the read side stored in clear before issue 11: the sealed JSON columns
// (sealedColumns.ts) and document contents. Idempotent: a row already sealed is left as is, so a
// second run changes nothing. Safe beside a running server: each row is written only if unchanged
// since it was read (a projector that wrote it meanwhile already sealed it). The event log is never
// touched: old events are read through the codec as stored.
import { type Kysely, sql } from 'kysely'
import type { DataProtection } from '../events/protection/dataProtection.js'
import { isSealedBytes } from '../events/protection/fieldCipher.js'
import { sealDocumentContent } from './documentContentStore.js'
import type { ReadDatabase } from './schema.js'
import { SEALED_JSON_COLUMNS, type SealedJson } from './sealedColumns.js'

export const SEAL_EXISTING_LIMITS = {
  /** Rows read per statement, in id order. */
  batchSize: 500,
} as const

export type SealCounts = { scanned: number; sealed: number }
export type DocumentSealCounts = SealCounts & {
  /** Clear contents of an erased subject, emptied instead (they read as erased: 410). */
  erased: number
  /** Contents with no document row (an upload whose event was never appended): left as they are. */
  unreferenced: number
}

type JsonRow = { id: string; subject: string; value: unknown }

async function sealJsonColumn(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  table: string,
  column: string,
  sealed: SealedJson<unknown>,
): Promise<SealCounts> {
  const counts: SealCounts = { scanned: 0, sealed: 0 }
  let after = ''
  for (;;) {
    const { rows } =
      await sql<JsonRow>`SELECT id, ${sql.ref(sealed.subjectColumn)} AS subject, ${sql.ref(column)} AS value FROM ${sql.table(table)}
      WHERE id > ${after} ORDER BY id LIMIT ${SEAL_EXISTING_LIMITS.batchSize}`.execute(db)
    if (rows.length === 0) return counts
    counts.scanned += rows.length
    after = rows[rows.length - 1]!.id
    for (const row of rows.filter((r) => !sealed.isSealed(r.value))) {
      // Opened first: a leaf already sealed opens, and an erased subject's clear leaves read as ERASED.
      const value = await sealed.seal(protection, row.id, await sealed.open(protection, row.id, row.value, row.subject), row.subject)
      const result = await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${JSON.stringify(value)}::jsonb
        WHERE id = ${row.id} AND ${sql.ref(column)} = ${JSON.stringify(row.value)}::jsonb`.execute(db)
      counts.sealed += Number(result.numAffectedRows ?? 0n)
    }
  }
}

async function sealDocumentContents(db: Kysely<ReadDatabase>, protection: DataProtection): Promise<DocumentSealCounts> {
  const counts: DocumentSealCounts = { scanned: 0, sealed: 0, erased: 0, unreferenced: 0 }
  let after = ''
  for (;;) {
    const rows = await db
      .selectFrom('document_contents as c')
      .leftJoin('documents as d', 'd.id', 'c.document_id')
      .select(['c.document_id', 'c.content', 'd.id as known', 'd.customer_id'])
      .where('c.document_id', '>', after)
      .orderBy('c.document_id')
      .limit(SEAL_EXISTING_LIMITS.batchSize)
      .execute()
    if (rows.length === 0) return counts
    counts.scanned += rows.length
    after = rows[rows.length - 1]!.document_id
    for (const row of rows.filter((r) => !isSealedBytes(r.content))) {
      // Without its document row the subject (its customer) is unknown: sealing under a guess could never open.
      if (row.known === null) {
        counts.unreferenced++
        continue
      }
      const ref = { documentId: row.document_id, customerId: row.customer_id }
      const key = await protection.keys.keyForReading(ref.customerId ?? ref.documentId)
      const content = key.state === 'shredded' ? Buffer.alloc(0) : await sealDocumentContent(protection, ref, row.content)
      const result = await db
        .updateTable('document_contents')
        .set({ content })
        .where('document_id', '=', row.document_id)
        .where('content', '=', row.content)
        .executeTakeFirst()
      if (key.state === 'shredded') counts.erased += Number(result.numUpdatedRows)
      else counts.sealed += Number(result.numUpdatedRows)
    }
  }
}

/** Seals every read-model column and document content still in clear; counts per table. */
export async function sealExistingReadModels(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
): Promise<Record<string, SealCounts | DocumentSealCounts>> {
  const counts: Record<string, SealCounts | DocumentSealCounts> = {}
  for (const { table, column, sealed } of SEALED_JSON_COLUMNS) {
    counts[`${table}.${column}`] = await sealJsonColumn(db, protection, table, column, sealed)
  }
  counts['document_contents.content'] = await sealDocumentContents(db, protection)
  return counts
}
