// Where an uploaded document's bytes are kept: the port the upload command writes through, before
// it appends DocumentUploaded. Its Postgres adapter sits beside the table it writes
// (projections/documentContentStore.ts); the server wires one to the other.
export type DocumentContent = { documentId: string; organizationId: string; content: Buffer; sha256: string }

export type DocumentContentStore = {
  /** Stores the bytes durably; resolves once they are committed. */
  put(document: DocumentContent): Promise<void>
}
