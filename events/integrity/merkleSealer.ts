// The sealer: a consumer of every event, in commit order, that appends each one's leaf to the event
// log's Merkle tree (RFC 6962) with the subtrees it completes, in the transaction that moves its
// checkpoint, so the tree holds each event exactly once and in $all's order. Signing checkpoints of the
// tree is a separate step (checkpointSealer.ts): this one only grows it.
import type { Consumer } from '../consumers/consumer.js'
import { type CompletedNode, appendLeafNodes } from './merkleTree.js'
import { leafOfEvent } from './merkleLeaf.js'
import { type TreeLeafRow, appendToTree, readFrontier } from './treeStore.js'

export const MERKLE_SEALER = 'audit_merkle_tree'

/** Its group reads $all at most this often: large batches, few transactions (nothing waits on it). */
export const AUDIT_TREE_LIMITS = { batchIntervalMs: 250 } as const

export function merkleSealer<DB>(): Consumer<DB> {
  return {
    name: MERKLE_SEALER,
    async apply(trx, events) {
      // Locked: two processes applying the same batch take turns, and the second finds it sealed.
      const start = await readFrontier(trx, { forUpdate: true })
      let frontier = { size: start.size, subtrees: start.subtrees }
      let throughPosition = start.throughPosition
      const leaves: TreeLeafRow[] = []
      const nodes: CompletedNode[] = []
      for (const event of events) {
        // Sealed already (a checkpoint moved back by an operator): the tree never takes an event twice.
        if (throughPosition !== '' && event.position <= throughPosition) continue
        leaves.push({
          leafIndex: frontier.size,
          eventId: event.id,
          organizationId: event.metadata.organizationId ?? null,
          position: event.position,
        })
        const appended = appendLeafNodes(frontier, leafOfEvent(event))
        nodes.push(...appended.completed)
        frontier = appended.frontier
        throughPosition = event.position
      }
      if (leaves.length > 0) await appendToTree(trx, leaves, nodes, { ...frontier, throughPosition })
    },
  }
}
