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

/**
 * The root of a complete, aligned subtree: leaves [index * 2^level, (index + 1) * 2^level). What a
 * store keeps as the tree grows (level 0 is the leaf hashes), so any proof is a few lookups of these.
 */
export type NodeAt = (level: number, index: number) => Hash

/** MTH(D[start:end]): every range RFC 6962 splits into is aligned to its size's largest power of two. */
function rangeRoot(start: number, end: number, node: NodeAt): Hash {
  const n = end - start
  if ((n & (n - 1)) === 0) return node(Math.log2(n), start / n)
  const k = splitPoint(n)
  return nodeHash(rangeRoot(start, start + k, node), rangeRoot(start + k, end, node))
}

/** PATH(m, D[start:end]). */
function path(index: number, start: number, end: number, node: NodeAt): Hash[] {
  if (end - start === 1) return []
  const k = start + splitPoint(end - start)
  return index < k ? [...path(index, start, k, node), rangeRoot(k, end, node)] : [...path(index, k, end, node), rangeRoot(start, k, node)]
}

/** SUBPROOF(m, D[start:end], b). */
function subproof(m: number, start: number, end: number, complete: boolean, node: NodeAt): Hash[] {
  if (start + m === end) return complete ? [] : [rangeRoot(start, end, node)]
  const k = splitPoint(end - start)
  return m <= k
    ? [...subproof(m, start, start + k, complete, node), rangeRoot(start + k, end, node)]
    : [...subproof(m - k, start + k, end, false, node), rangeRoot(start, start + k, node)]
}

/** The root of the first `size` leaves. */
export function rootAt(size: number, node: NodeAt): Hash {
  return size === 0 ? EMPTY_ROOT : rangeRoot(0, size, node)
}

/** The audit path of leaf `index` in the tree of the first `size` leaves. */
export function inclusionProofAt(index: number, size: number, node: NodeAt): Hash[] {
  if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`leaf ${index} is not in a tree of ${size}`)
  return path(index, 0, size, node)
}

/** PROOF(m, D[size]): that the tree of the first m leaves is a prefix of the tree of `size`. */
export function consistencyProofAt(m: number, size: number, node: NodeAt): Hash[] {
  if (!Number.isInteger(m) || m < 1 || m > size) throw new RangeError(`no consistency proof from ${m} to ${size}`)
  return subproof(m, 0, size, true, node)
}

/** The nodes a computation over NodeAt looks up, found by running it once on placeholders. */
export function nodesNeeded(compute: (node: NodeAt) => unknown): { level: number; index: number }[] {
  const needed = new Map<string, { level: number; index: number }>()
  compute((level, index) => {
    needed.set(`${level}:${index}`, { level, index })
    return EMPTY_ROOT
  })
  return [...needed.values()]
}

/** Leaf hashes in memory as a NodeAt (tests, an offline verify): each node computed from its leaves. */
export function nodesOfLeaves(leaves: readonly Hash[]): NodeAt {
  const node: NodeAt = (level, index) => {
    const width = 2 ** level
    if ((index + 1) * width > leaves.length) throw new RangeError(`node ${level}:${index} is past ${leaves.length} leaves`)
    if (level === 0) return leaves[index]!
    return nodeHash(node(level - 1, index * 2), node(level - 1, index * 2 + 1))
  }
  return node
}

/** MTH(D[n]) over leaf hashes (already hashed with leafHash). */
export const rootOf = (leaves: readonly Hash[]): Hash => rootAt(leaves.length, nodesOfLeaves(leaves))

/** PATH(m, D[n]): the audit path of leaf m in the tree of these leaf hashes. */
export const inclusionProof = (index: number, leaves: readonly Hash[]): Hash[] =>
  inclusionProofAt(index, leaves.length, nodesOfLeaves(leaves))

/** PROOF(m, D[n]): that the tree of the first m leaves is a prefix of the tree of all of them. */
export const consistencyProof = (m: number, leaves: readonly Hash[]): Hash[] => consistencyProofAt(m, leaves.length, nodesOfLeaves(leaves))

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

/** A subtree completed by an append: what a store keeps to answer proofs later (NodeAt). */
export type CompletedNode = { level: number; index: number; hash: Hash }

/** Appends a leaf hash; returns the new frontier and the nodes it completed (the leaf itself first). */
export function appendLeafNodes(frontier: TreeFrontier, leaf: Hash): { frontier: TreeFrontier; completed: CompletedNode[] } {
  const leafIndex = frontier.size
  const completed: CompletedNode[] = [{ level: 0, index: leafIndex, hash: leaf }]
  const subtrees = [...frontier.subtrees, leaf]
  // Each trailing 1 bit of the old size is a complete subtree the new leaf completes a level above.
  let level = 1
  for (let size = frontier.size; size % 2 === 1; size = Math.floor(size / 2), level++) {
    const right = subtrees.pop()!
    const left = subtrees.pop()!
    const hash = nodeHash(left, right)
    subtrees.push(hash)
    completed.push({ level, index: Math.floor(leafIndex / 2 ** level), hash })
  }
  return { frontier: { size: frontier.size + 1, subtrees }, completed }
}

export const appendLeaf = (frontier: TreeFrontier, leaf: Hash): TreeFrontier => appendLeafNodes(frontier, leaf).frontier

/** The root of the frontier's tree: its subtrees folded from the right. */
export function frontierRoot(frontier: TreeFrontier): Hash {
  if (frontier.subtrees.length === 0) return EMPTY_ROOT
  let root = frontier.subtrees[frontier.subtrees.length - 1]!
  for (let i = frontier.subtrees.length - 2; i >= 0; i--) root = nodeHash(frontier.subtrees[i]!, root)
  return root
}
