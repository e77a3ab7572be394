// Checks a signed checkpoint against the log (issue 29): its signature by the trusted key, and the
// RFC 6962 root recomputed over the first `treeSize` events fed in commit order. What the hash chain
// cannot see, this does: a stream's last events deleted, or a stream rewritten with fresh hashes, both
// change the leaves and so the root. Pure: the caller reads the store or an export and feeds it.
import type { RecordedEvent } from '../store/port.js'
import type { CheckpointRecord } from './checkpointRecord.js'
import { keyIdOf, verifyCheckpoint } from './checkpointSignature.js'
import { EMPTY_FRONTIER, appendLeaf, frontierRoot } from './merkleTree.js'
import { leafOfEvent } from './merkleLeaf.js'

export type CheckpointReport = {
  treeSize: number
  rootHash: string
  sealedAt: string
  keyId: string
  /** Signed by the trusted key, unchanged since. */
  signatureValid: boolean
  /** Events the log holds at or below the checkpoint's size (fewer than treeSize: events are gone). */
  eventsInTree: number
  /** The root recomputed over them; null when the log holds fewer events than the checkpoint. */
  recomputedRoot: string | null
  consistent: boolean
  /** What is wrong, for a person; null when consistent. */
  problem: string | null
  /** The last event inside the tree: where the checkpoint ends in the log. */
  lastEventId: string | null
}

export type CheckpointChecker = { add(event: Pick<RecordedEvent, 'id' | 'hash'>): void; report(): CheckpointReport }

export function checkpointChecker(checkpoint: CheckpointRecord, trustedKey: Buffer): CheckpointChecker {
  let frontier = EMPTY_FRONTIER
  let lastEventId: string | null = null
  return {
    add(event) {
      if (frontier.size >= checkpoint.treeSize) return
      frontier = appendLeaf(frontier, leafOfEvent(event))
      lastEventId = event.id
    },
    report() {
      const signatureValid = verifyCheckpoint(checkpoint, trustedKey)
      const complete = frontier.size === checkpoint.treeSize
      const recomputedRoot = complete ? frontierRoot(frontier).toString('hex') : null
      const problem = !signatureValid
        ? `the signature does not verify with key ${keyIdOf(trustedKey)}`
        : !complete
          ? `the log holds ${frontier.size} events, the checkpoint sealed ${checkpoint.treeSize}: events were deleted`
          : recomputedRoot !== checkpoint.rootHash
            ? `the root over the first ${checkpoint.treeSize} events is ${recomputedRoot}, the checkpoint signed ${checkpoint.rootHash}: ` +
              'an event inside the tree was altered, deleted, reordered or rewritten'
            : null
      return {
        treeSize: checkpoint.treeSize,
        rootHash: checkpoint.rootHash,
        sealedAt: checkpoint.sealedAt,
        keyId: checkpoint.keyId,
        signatureValid,
        eventsInTree: frontier.size,
        recomputedRoot,
        consistent: problem === null,
        problem,
        lastEventId,
      }
    },
  }
}
