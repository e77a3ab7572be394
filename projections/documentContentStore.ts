// Durable document bytes: one row per document in Postgres (bytea), written and committed before
// the DocumentUploaded event is appended. An upload whose append then fails leaves an unreferenced
// row, never a referenced document without content. The port is domain/document/contentStore.ts.
import type { Kysely } from 'kysely'
import type { DocumentContentStore } from '../domain/document/contentStore.js'
import type { ReadDatabase } from './schema.js'

export function postgresDocumentContentStore(db: Kysely<ReadDatabase>): DocumentContentStore {
  return {
    async put(d) {
      await db
        .insertInto('document_contents')
        .values({
          document_id: d.documentId,
          organization_id: d.organizationId,
          content: d.content,
          size_bytes: d.content.length,
          sha256: d.sha256,
        })
        .execute()
    },
  }
}
