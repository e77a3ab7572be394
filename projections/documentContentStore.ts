// Durable document bytes: one row per document in Postgres (bytea), written and committed before
// the DocumentUploaded event is appended. An upload whose append then fails leaves an unreferenced
// row, never a referenced document without content. The port is domain/document/contentStore.ts.
// The bytes are sealed with the data key of the document's customer (of the document itself when
// it has none), so erasing the customer makes them unreadable; the size and hash stay in clear.
import type { Kysely } from 'kysely'
import type { DocumentContentStore } from '../domain/document/contentStore.js'
import type { DataProtection } from '../events/protection/dataProtection.js'
import { isSealedBytes } from '../events/protection/fieldCipher.js'
import { streams } from '../events/streams.js'
import type { ReadDatabase } from './schema.js'

export type DocumentRef = { documentId: string; customerId: string | null }

/** Whose key seals a document's bytes: its customer's, else its own. */
export const documentContentSubject = (d: DocumentRef): string => d.customerId ?? d.documentId

/** The record the sealed bytes are bound to (associated data): the document's stream. */
export const documentContentRecord = (d: DocumentRef): string => streams.document(d.documentId)

export const sealDocumentContent = (protection: DataProtection, d: DocumentRef, content: Buffer): Promise<Buffer> =>
  protection.sealContent(documentContentSubject(d), documentContentRecord(d), content)

/**
 * The stored bytes opened, or undefined once the subject was erased. Bytes stored before
 * encryption (never starting with the sealed version byte: every allowed type has its own
 * signature) are returned as they are until then.
 */
export async function openDocumentContent(protection: DataProtection, d: DocumentRef, stored: Buffer): Promise<Buffer | undefined> {
  const subject = documentContentSubject(d)
  if (isSealedBytes(stored)) return protection.openContent(subject, documentContentRecord(d), stored)
  const key = await protection.keys.keyForReading(subject)
  return key.state === 'shredded' ? undefined : stored
}

export function postgresDocumentContentStore(db: Kysely<ReadDatabase>, protection: DataProtection): DocumentContentStore {
  return {
    async put(d) {
      await db
        .insertInto('document_contents')
        .values({
          document_id: d.documentId,
          organization_id: d.organizationId,
          content: await sealDocumentContent(protection, d, d.content),
          size_bytes: d.content.length,
          sha256: d.sha256,
        })
        .execute()
    },
  }
}
