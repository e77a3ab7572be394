// Where an uploaded document's bytes are kept: the port the upload command writes through, before
// it appends DocumentUploaded. Its Postgres adapter sits beside the table it writes
// (projections/documentContentStore.ts, which seals the bytes with the data key of the document's
// customer, or of the document itself when it has none); the server wires one to the other.
export type DocumentContent = {
  documentId: string
  organizationId: string
  /** Whose data the bytes are: erasing this customer makes them unreadable. */
  customerId: string | null
  content: Buffer
  sha256: string
}

export type DocumentContentStore = {
  /** Stores the bytes durably; resolves once they are committed. */
  put(document: DocumentContent): Promise<void>
}
