// RFC 6962 (Certificate Transparency) Merkle tree hashing over the events' hashes in commit order:
// the tree head a checkpoint signs, inclusion proofs (this event is in that tree) and consistency
// proofs (the later tree extends the earlier one), and their verification as RFC 9162 §2.1.3-2.1.4
// gives it. Pure: leaves come in as bytes; nothing here reads a store.
import { createHash } from 'node:crypto'

export type Hash = Buffer

const sha256 = (...parts: Buffer[]): Hash => {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part)
  return hash.digest()
}

const LEAF_PREFIX = Buffer.from([0x00])
const NODE_PREFIX = Buffer.from([0x01])

/** MTH({d}) = SHA-256(0x00 || d). */
export const leafHash = (leaf: Buffer): Hash => sha256(LEAF_PREFIX, leaf)

/** SHA-256(0x01 || left || right). */
export const nodeHash = (left: Hash, right: Hash): Hash => sha256(NODE_PREFIX, left, right)

/** The root of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT: Hash = sha256()

/** The largest power of two smaller than n (n > 1). */
function splitPoint(n: number): number {
  let k = 1
  while (k * 2 < n) k *= 2
  return k
}

/** MTH(D[n]) over leaf hashes (already hashed with leafHash). */
export function rootOf(leaves: readonly Hash[]): Hash {
  if (leaves.length === 0) return EMPTY_ROOT
  if (leaves.length === 1) return leaves[0]!
  const k = splitPoint(leaves.length)
  return nodeHash(rootOf(leaves.slice(0, k)), rootOf(leaves.slice(k)))
}

/** PATH(m, D[n]): the audit path of leaf m in the tree of these leaf hashes. */
export function inclusionProof(index: number, leaves: readonly Hash[]): Hash[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length)
    throw new RangeError(`leaf ${index} is not in a tree of ${leaves.length}`)
  if (leaves.length === 1) return []
  const k = splitPoint(leaves.length)
  return index < k
    ? [...inclusionProof(index, leaves.slice(0, k)), rootOf(leaves.slice(k))]
    : [...inclusionProof(index - k, leaves.slice(k)), rootOf(leaves.slice(0, k))]
}

/** SUBPROOF(m, D[n], b). */
function subproof(m: number, leaves: readonly Hash[], complete: boolean): Hash[] {
  const n = leaves.length
  if (m === n) return complete ? [] : [rootOf(leaves)]
  const k = splitPoint(n)
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), complete), rootOf(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), rootOf(leaves.slice(0, k))]
}

/** PROOF(m, D[n]): that the tree of the first m leaves is a prefix of the tree of all of them. */
export function consistencyProof(m: number, leaves: readonly Hash[]): Hash[] {
  if (!Number.isInteger(m) || m < 1 || m > leaves.length) throw new RangeError(`no consistency proof from ${m} to ${leaves.length}`)
  return subproof(m, leaves, true)
}

/** RFC 9162 §2.1.3.2: whether `leaf` (a leaf hash) is leaf `index` of the tree of `size` with this root. */
export function verifyInclusion(index: number, size: number, leaf: Hash, proof: readonly Hash[], root: Hash): boolean {
  if (index >= size || index < 0) return false
  let fn = index
  let sn = size - 1
  let r = leaf
  for (const p of proof) {
    if (sn === 0) return false
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r)
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2)
          sn = Math.floor(sn / 2)
        }
      }
    } else r = nodeHash(r, p)
    fn = Math.floor(fn / 2)
    sn = Math.floor(sn / 2)
  }
  return sn === 0 && r.equals(root)
}

/** RFC 9162 §2.1.4.2: whether the tree of `second` leaves with `secondRoot` extends the one of `first` with `firstRoot`. */
export function verifyConsistency(first: number, second: number, firstRoot: Hash, secondRoot: Hash, proof: readonly Hash[]): boolean {
  if (first < 1 || first > second) return false
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot)
  if (proof.length === 0) return false
  const path = [...proof]
  // A first tree that is a complete subtree is its own first node.
  if ((first & (first - 1)) === 0) path.unshift(firstRoot)
  let fn = first - 1
  let sn = second - 1
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2)
    sn = Math.floor(sn / 2)
  }
  let fr = path[0]!
  let sr = path[0]!
  for (const c of path.slice(1)) {
    if (sn === 0) return false
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr)
      sr = nodeHash(c, sr)
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2)
          sn = Math.floor(sn / 2)
        }
      }
    } else sr = nodeHash(sr, c)
    fn = Math.floor(fn / 2)
    sn = Math.floor(sn / 2)
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot)
}

/**
 * The tree's right edge: the roots of its complete subtrees, largest first. Enough to append leaves
 * and compute the root without keeping them (what a sealer holds between checkpoints), O(log n) space.
 */
export type TreeFrontier = { size: number; subtrees: Hash[] }

export const EMPTY_FRONTIER: TreeFrontier = { size: 0, subtrees: [] }

export function appendLeaf(frontier: TreeFrontier, leaf: Hash): TreeFrontier {
  const subtrees = [...frontier.subtrees, leaf]
  // Each trailing 1 bit of the old size is a complete subtree the new leaf completes a level above.
  for (let size = frontier.size; size % 2 === 1; size = Math.floor(size / 2)) {
    const right = subtrees.pop()!
    const left = subtrees.pop()!
    subtrees.push(nodeHash(left, right))
  }
  return { size: frontier.size + 1, subtrees }
}

/** The root of the frontier's tree: its subtrees folded from the right. */
export function frontierRoot(frontier: TreeFrontier): Hash {
  if (frontier.subtrees.length === 0) return EMPTY_ROOT
  let root = frontier.subtrees[frontier.subtrees.length - 1]!
  for (let i = frontier.subtrees.length - 2; i >= 0; i--) root = nodeHash(frontier.subtrees[i]!, root)
  return root
}
