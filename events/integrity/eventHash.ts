// The hash that links each stored event to the one before it in its stream (issue 29; docs/events.md,
// "The hash chain"). Two steps, so the store can finish the link inside its own append:
//   contentHash = SHA-256 of the RFC 8785 (JCS) JSON of { data, id, metadata, stream, type }, the data
//                 and metadata as stored (sealed fields as ciphertext): computed by the writer;
//   eventHash   = SHA-256 of the JCS JSON of { contentHash, previousHash, recordedAt, revision }, with the
//                 stream's previous eventHash (null for revision 0) and the time at millisecond
//                 precision: computed where the revision and the time are settled (Postgres: a trigger
//                 in the append's transaction, events/store/postgres/schema.ts; EventStoreDB: the adapter).
// The second JSON holds only hex strings, an ISO time and an integer, so its canonical text is the
// fixed template below, which the Postgres trigger writes the same way.
import { createHash } from 'node:crypto'
import { canonicalJson } from './canonicalJson.js'

/** What the content hash covers: the event as the store keeps it. */
export type HashedContent = { id: string; stream: string; type: string; data: unknown; metadata: unknown }

export type ChainLink = { contentHash: string; previousHash: string | null; recordedAt: string; revision: bigint }

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

export function contentHashOf(event: HashedContent): string {
  const text = canonicalJson({ data: event.data, id: event.id, metadata: event.metadata, stream: event.stream, type: event.type })
  if (text === undefined) throw new TypeError('An event without content cannot be hashed')
  return sha256Hex(text)
}

/** The canonical JSON of a link: what `canonicalize` makes of it, written out (the trigger's template). */
export function chainLinkText(link: ChainLink): string {
  const previous = link.previousHash === null ? 'null' : `"${link.previousHash}"`
  return `{"contentHash":"${link.contentHash}","previousHash":${previous},"recordedAt":"${link.recordedAt}","revision":${link.revision}}`
}

export function eventHashOf(link: ChainLink): string {
  return sha256Hex(chainLinkText(link))
}

/** The time as the chain hashes it: ISO 8601 in UTC with milliseconds, as Date.toISOString writes it. */
export const chainTimeOf = (at: Date): string => at.toISOString()
