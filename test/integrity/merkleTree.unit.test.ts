// RFC 6962 hashing against Certificate Transparency's published test vectors (the eight leaves of
// its reference tests), and every inclusion and consistency proof of trees up to 40 leaves verified
// by the RFC 9162 algorithms, with a wrong leaf, root or size refused.
import t from 'tap'
import {
  EMPTY_FRONTIER,
  EMPTY_ROOT,
  type Hash,
  appendLeaf,
  appendLeafNodes,
  consistencyProofAt,
  inclusionProofAt,
  type NodeAt,
  nodesNeeded,
  rootAt,
  consistencyProof,
  frontierRoot,
  inclusionProof,
  leafHash,
  rootOf,
  verifyConsistency,
  verifyInclusion,
} from '../../events/integrity/merkleTree.js'

const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((hex) =>
  leafHash(Buffer.from(hex, 'hex')),
)
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
]

t.test('the roots of the reference trees', async (t) => {
  t.equal(EMPTY_ROOT.toString('hex'), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  ROOTS.forEach((root, i) => t.equal(rootOf(LEAVES.slice(0, i + 1)).toString('hex'), root, `${i + 1} leaves`))
})

const leavesOf = (n: number): Hash[] => Array.from({ length: n }, (_, i) => leafHash(Buffer.from(`event ${i}`)))

t.test('the frontier computes the same root, leaf by leaf', async (t) => {
  const leaves = leavesOf(40)
  let frontier = EMPTY_FRONTIER
  let same = 0
  for (let n = 1; n <= leaves.length; n++) {
    frontier = appendLeaf(frontier, leaves[n - 1]!)
    if (frontierRoot(frontier).equals(rootOf(leaves.slice(0, n)))) same += 1
    t.ok(frontier.subtrees.length <= Math.ceil(Math.log2(n + 1)), `at most log2 subtrees at ${n}`)
  }
  t.equal(same, leaves.length)
})

t.test('every inclusion proof verifies; a wrong leaf, index or root does not', async (t) => {
  const leaves = leavesOf(40)
  let checked = 0
  for (let n = 1; n <= leaves.length; n++) {
    const root = rootOf(leaves.slice(0, n))
    for (let i = 0; i < n; i++) {
      const proof = inclusionProof(i, leaves.slice(0, n))
      if (!verifyInclusion(i, n, leaves[i]!, proof, root)) t.fail(`leaf ${i} of ${n}`)
      if (verifyInclusion(i, n, leaves[(i + 1) % 40]!, proof, root)) t.fail(`a wrong leaf at ${i} of ${n}`)
      if (n > 1 && verifyInclusion((i + 1) % n, n, leaves[i]!, proof, root)) t.fail(`a wrong index at ${i} of ${n}`)
      if (verifyInclusion(i, n, leaves[i]!, proof, EMPTY_ROOT)) t.fail(`a wrong root at ${i} of ${n}`)
      checked += 1
    }
  }
  t.equal(checked, (40 * 41) / 2)
})

t.test('every consistency proof verifies; a changed earlier tree does not', async (t) => {
  const leaves = leavesOf(40)
  let checked = 0
  for (let n = 1; n <= leaves.length; n++) {
    const second = rootOf(leaves.slice(0, n))
    for (let m = 1; m <= n; m++) {
      const first = rootOf(leaves.slice(0, m))
      const proof = consistencyProof(m, leaves.slice(0, n))
      if (!verifyConsistency(m, n, first, second, proof)) t.fail(`${m} to ${n}`)
      const forged = rootOf([leafHash(Buffer.from('forged')), ...leaves.slice(1, m)])
      if (verifyConsistency(m, n, forged, second, proof)) t.fail(`a forged first tree ${m} to ${n}`)
      checked += 1
    }
  }
  t.equal(checked, (40 * 41) / 2)
  t.throws(() => consistencyProof(0, leaves), RangeError)
})

t.test('the nodes an append completes answer every proof of every earlier size, as a store keeps them', async (t) => {
  const leaves = leavesOf(37)
  const stored = new Map<string, Hash>()
  let frontier = EMPTY_FRONTIER
  for (const leaf of leaves) {
    const appended = appendLeafNodes(frontier, leaf)
    for (const node of appended.completed) stored.set(`${node.level}:${node.index}`, node.hash)
    frontier = appended.frontier
  }
  const node: NodeAt = (level, index) => {
    const hash = stored.get(`${level}:${index}`)
    if (!hash) throw new Error(`node ${level}:${index} was never completed`)
    return hash
  }
  t.equal(stored.size, 2 * leaves.length - 3, '2n - popcount(n): one node per leaf and one per merge')
  let same = 0
  for (let n = 1; n <= leaves.length; n++) {
    const inMemory = leaves.slice(0, n)
    if (!rootAt(n, node).equals(rootOf(inMemory))) t.fail(`root of ${n}`)
    for (let i = 0; i < n; i++)
      if (Buffer.compare(Buffer.concat(inclusionProofAt(i, n, node)), Buffer.concat(inclusionProof(i, inMemory))) !== 0)
        t.fail(`path ${i} of ${n}`)
    for (let m = 1; m <= n; m++)
      if (Buffer.compare(Buffer.concat(consistencyProofAt(m, n, node)), Buffer.concat(consistencyProof(m, inMemory))) !== 0)
        t.fail(`${m} to ${n}`)
    same += 1
  }
  t.equal(same, leaves.length)
  const needed = nodesNeeded((lookup) => inclusionProofAt(5, 37, lookup))
  t.ok(needed.length <= 12, `a proof of 37 leaves needs ${needed.length} stored nodes`)
})
