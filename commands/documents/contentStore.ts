// Durable document bytes: one row per document in Postgres (bytea), written and committed before
// the DocumentUploaded event is appended. An upload whose append then fails leaves an unreferenced
// row, never a referenced document without content.
import type { Kysely } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'

export type DocumentContentStore = {
  put(document: { documentId: string; organizationId: string; content: Buffer; sha256: string }): Promise<void>
}

export function postgresDocumentContentStore(db: Kysely<ReadDatabase>): DocumentContentStore {
  return {
    async put(d) {
      await db.insertInto('document_contents').values({
        document_id: d.documentId, organization_id: d.organizationId, content: d.content, size_bytes: d.content.length, sha256: d.sha256,
      }).execute()
    },
  }
}
