// The hash chain on EventStoreDB (events/integrity/eventHash.ts): no trigger can finish the link in
// the server, so the adapter computes each event's hash before its append, from the stream's last event
// as just read, and keeps it in the event's metadata under `chain` with the time it hashed. The append
// then expects exactly that last revision, so the link it computed is the one stored. On read the
// adapter moves `chain` out of the metadata: the hashed metadata is the caller's, as on Postgres.
import { chainTimeOf, contentHashOf, eventHashOf } from '../../integrity/eventHash.js'
import type { EventMetadata, NewEvent } from '../port.js'

export const CHAIN_METADATA_KEY = 'chain'

export type StoredChain = { hash: string; at: string }

/** The stream's last event as the next link needs it; undefined for a stream without events. */
export type ChainTail = { revision: bigint; hash: string | null; eventId: string }

/** The events with their links, the first after `tail`, all hashed with one time. */
export function chainEvents(stream: string, events: NewEvent[], tail: ChainTail | undefined, now: Date): NewEvent[] {
  const at = chainTimeOf(now)
  let previousHash = tail?.hash ?? null
  let revision = tail ? tail.revision + 1n : 0n
  return events.map((event) => {
    const contentHash = contentHashOf({ id: event.id, stream, type: event.type, data: event.data, metadata: event.metadata })
    const hash = eventHashOf({ contentHash, previousHash, recordedAt: at, revision })
    previousHash = hash
    revision += 1n
    const chain: StoredChain = { hash, at }
    return { ...event, metadata: { ...event.metadata, [CHAIN_METADATA_KEY]: chain } as EventMetadata }
  })
}

const HASH = /^[0-9a-f]{64}$/

/** Splits stored metadata into the caller's and the chain link; a malformed link counts as none. */
export function splitChain(stored: Record<string, unknown>): { metadata: EventMetadata; chain: StoredChain | undefined } {
  const { [CHAIN_METADATA_KEY]: link, ...metadata } = stored
  const candidate = link as Partial<StoredChain> | undefined
  const valid =
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.hash === 'string' &&
    HASH.test(candidate.hash) &&
    typeof candidate.at === 'string' &&
    !Number.isNaN(Date.parse(candidate.at))
  return { metadata: metadata as EventMetadata, chain: valid ? { hash: candidate.hash!, at: candidate.at! } : undefined }
}
