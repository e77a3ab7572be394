// What a leaf of the event log's Merkle tree is: the event's chain hash (which covers its content and
// its stream's history), or, for an event stored before the chain existed, a hash naming its id (the
// tree then seals that it was there, in that order). One definition for the sealer and the verifier.
import { createHash } from 'node:crypto'
import type { RecordedEvent } from '../store/port.js'
import { type Hash, leafHash } from './merkleTree.js'

export function leafOfEvent(event: Pick<RecordedEvent, 'id' | 'hash'>): Hash {
  const data = event.hash ? Buffer.from(event.hash, 'hex') : createHash('sha256').update(`unchained:${event.id}`).digest()
  return leafHash(data)
}
