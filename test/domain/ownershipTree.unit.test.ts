import t from 'tap'
import {
  DEFAULT_OWNERSHIP_THRESHOLD,
  MAX_OWNERSHIP_DEPTH,
  MAX_OWNERSHIP_NODES,
  checkOwnershipLimits,
  checkOwnershipTree,
  effectiveOwnership,
  submissionOwnershipRequirement,
  type OwnershipNode,
} from '../../domain/customer/ownership/effectiveOwnership.js'

// Builders: a person or a business, owned directly (parent null) or through a business.
const person = (id: string, parentId: string | null, pct: number | null, hasControl = false): OwnershipNode => ({
  id,
  kind: 'INDIVIDUAL',
  parentId,
  ownershipPercentage: pct,
  hasOwnership: pct !== null && pct > 0,
  hasControl,
})
const business = (id: string, parentId: string | null, pct: number | null): OwnershipNode => ({
  id,
  kind: 'BUSINESS',
  parentId,
  ownershipPercentage: pct,
  hasOwnership: true,
  hasControl: false,
})
/** A chain of `levels` businesses at `pct` each, with a person at `pct` under the last. */
const chain = (levels: number, pct: number): OwnershipNode[] => {
  const nodes: OwnershipNode[] = []
  for (let i = 0; i < levels; i++) nodes.push(business(`b${i}`, i === 0 ? null : `b${i - 1}`, pct))
  nodes.push(person('p', levels === 0 ? null : `b${levels - 1}`, pct))
  return nodes
}

t.test('checkOwnershipTree: valid trees', async (t) => {
  t.same(checkOwnershipTree([]), { ok: true }, 'empty')
  t.same(checkOwnershipTree([person('p1', null, 100)]), { ok: true })
  t.same(checkOwnershipTree([person('p1', null, 0), person('p2', null, null)]), { ok: true }, '0 and null')
  t.same(
    checkOwnershipTree([
      business('b1', null, 60),
      person('p1', null, 40),
      person('p2', 'b1', 50),
      business('b2', 'b1', 50),
      person('p3', 'b2', 100),
    ]),
    { ok: true },
  )
  t.same(checkOwnershipTree([person('p1', 'b1', 10), business('b1', null, 10)]), { ok: true }, 'child listed before its parent')
  t.same(checkOwnershipTree([person('a', null, 33.33), person('b', null, 33.33), person('c', null, 33.34)]), { ok: true }, 'exactly 100')
  // In float arithmetic 0.2 + 83.9 + 15.9 = 100.00000000000001; the check must not refuse it.
  t.same(checkOwnershipTree([person('a', null, 0.2), person('b', null, 83.9), person('c', null, 15.9)]), { ok: true }, 'no float drift')
  t.same(checkOwnershipTree([person('a', null, 100), person('b', null, null)]), { ok: true }, 'null counts as 0')
})

t.test('checkOwnershipTree: percentages outside 0-100', async (t) => {
  for (const bad of [-0.0001, -1, 100.0001, 101, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    const r = checkOwnershipTree([person('ok', null, 10), person('bad', null, bad)])
    t.match(r, { ok: false, code: 'ownership_over_100', nodeIds: ['bad'] }, String(bad))
  }
})

t.test('checkOwnershipTree: parents', async (t) => {
  t.match(checkOwnershipTree([person('p1', 'asp_missing', 10)]), { ok: false, code: 'ownership_parent_missing', nodeIds: ['p1'] })
  t.match(checkOwnershipTree([person('p1', null, 10), person('p2', 'p1', 10)]), {
    ok: false,
    code: 'ownership_parent_not_business',
    nodeIds: ['p2'],
  })
  t.match(checkOwnershipTree([business('b1', 'p1', 10), person('p1', null, 10)]), {
    ok: false,
    code: 'ownership_parent_not_business',
    nodeIds: ['b1'],
  })
})

t.test('checkOwnershipTree: cycles', async (t) => {
  t.match(checkOwnershipTree([business('b1', 'b1', 10)]), { ok: false, code: 'ownership_cycle', nodeIds: ['b1'] }, 'own parent')
  t.match(checkOwnershipTree([business('b1', 'b2', 10), business('b2', 'b1', 10)]), {
    ok: false,
    code: 'ownership_cycle',
    nodeIds: ['b1', 'b2'],
  })
  const r = checkOwnershipTree([
    person('tail', 'b1', 10), // hangs off the cycle but is not part of it
    business('b1', 'b2', 10),
    business('b2', 'b3', 10),
    business('b3', 'b1', 10),
    business('root', null, 10),
  ])
  t.match(r, { ok: false, code: 'ownership_cycle' })
  if (!r.ok) t.same([...r.nodeIds].sort(), ['b1', 'b2', 'b3'], 'only the cycle members')
  // A long valid chain is linear work, not a stack overflow.
  const long: OwnershipNode[] = Array.from({ length: 20_000 }, (_, i) => business(`n${i}`, i === 0 ? null : `n${i - 1}`, 100))
  t.same(checkOwnershipTree(long), { ok: true })
})

t.test('checkOwnershipTree: sums per level', async (t) => {
  t.match(checkOwnershipTree([person('a', null, 60), business('b', null, 50)]), {
    ok: false,
    code: 'ownership_over_100',
    nodeIds: ['a', 'b'],
    message: /direct owners of the customer/,
  })
  const r = checkOwnershipTree([business('b1', null, 50), person('x', 'b1', 70), person('y', 'b1', 30.0001), person('z', null, 50)])
  t.match(r, { ok: false, code: 'ownership_over_100', nodeIds: ['x', 'y'], message: /owners of b1/ })
  t.same(
    checkOwnershipTree([business('b1', null, 100), business('b2', 'b1', 100), person('p', 'b2', 100)]),
    { ok: true },
    '100 at every level',
  )
  t.match(
    checkOwnershipTree([person('a', null, 33.34), person('b', null, 33.33), person('c', null, 33.34)]),
    { ok: false, code: 'ownership_over_100' },
    '100.01',
  )
})

t.test('effectiveOwnership multiplies down the tree exactly', async (t) => {
  t.same(effectiveOwnership([]), new Map())
  const tree = [
    business('b1', null, 50),
    business('b2', 'b1', 50),
    person('p1', 'b2', 100),
    person('p2', null, 33.33),
    business('b3', null, 16.67),
    person('p3', 'b3', 0.1),
  ]
  t.same(
    effectiveOwnership(tree),
    new Map([
      ['b1', 50],
      ['b2', 25],
      ['p1', 25],
      ['p2', 33.33],
      ['b3', 16.67],
      ['p3', 0.01667],
    ]),
  )
  // Float arithmetic would give 9.998999999999999 and 34.86784401000001.
  t.equal(effectiveOwnership([business('b', null, 30), person('p', 'b', 33.33)]).get('p'), 9.999)
  t.equal(effectiveOwnership(chain(9, 90)).get('p'), 34.86784401, '0.9^10 of 100%')
  t.equal(effectiveOwnership(chain(2, 50)).get('p'), 12.5)
  // Results are rounded to 1e-9 percent once, at the end.
  t.equal(effectiveOwnership([business('b', null, 100 / 3), person('p', 'b', 100 / 3)]).get('p'), 11.111111111)
  t.equal(effectiveOwnership(chain(9, 10)).get('p'), 1e-8, '10% of 10% ... ten levels')
  t.equal(effectiveOwnership([business('b', null, 0.000001), person('p', 'b', 0.001)]).get('p'), 0, '1e-11 % rounds to 0')
  t.equal(effectiveOwnership(chain(7, 10)).get('p'), 0.000001)
})

t.test('effectiveOwnership: unquantified and invalid parts give 0', async (t) => {
  const nodes = [business('b', null, null), person('p', 'b', 100), person('q', null, null)]
  const e = effectiveOwnership(nodes)
  t.equal(e.get('b'), 0, 'hasOwnership with no percentage is unquantified')
  t.equal(e.get('p'), 0, 'nothing flows through an unquantified owner')
  t.equal(e.get('q'), 0)
  const broken = effectiveOwnership([
    person('orphan', 'gone', 100),
    business('c1', 'c2', 100),
    business('c2', 'c1', 100),
    person('under', 'c1', 100),
    person('ok', null, 20),
  ])
  t.equal(broken.get('orphan'), 0)
  t.equal(broken.get('c1'), 0)
  t.equal(broken.get('under'), 0)
  t.equal(broken.get('ok'), 20)
  t.throws(() => effectiveOwnership(Array.from({ length: MAX_OWNERSHIP_NODES + 1 }, (_, i) => person(`p${i}`, null, 0))), RangeError)
  t.equal(
    effectiveOwnership(Array.from({ length: MAX_OWNERSHIP_NODES }, (_, i) => business(`n${i}`, i === 0 ? null : `n${i - 1}`, 99))).size,
    MAX_OWNERSHIP_NODES,
  )
})

t.test('submission requirement: by ownership', async (t) => {
  t.equal(DEFAULT_OWNERSHIP_THRESHOLD, 25)
  t.same(submissionOwnershipRequirement([person('p', null, 25)]), {
    satisfied: true,
    requiredPersonIds: ['p'],
    missing: '',
    basis: 'OWNERSHIP',
  })
  t.same(submissionOwnershipRequirement(chain(1, 50)).requiredPersonIds, ['p'], '50% of 50% is exactly 25%')
  t.same(submissionOwnershipRequirement(chain(2, 63)).requiredPersonIds, ['p'], '63%^3 = 25.0047%')
  t.same(submissionOwnershipRequirement(chain(2, 62.9)).basis, 'NONE', '62.9%^3 = 24.886%: not reached')
  const many = [
    person('a', null, 30),
    person('b', null, 10, true),
    business('h', null, 60),
    person('c', 'h', 50),
    person('d', 'h', 40),
    business('x', 'h', 10),
  ]
  // c: 30%, d: 24%; the business x is never a required person.
  t.same(submissionOwnershipRequirement(many), { satisfied: true, requiredPersonIds: ['a', 'c'], missing: '', basis: 'OWNERSHIP' })
  t.same(submissionOwnershipRequirement(many, 10).requiredPersonIds, ['a', 'b', 'c', 'd'], 'custom threshold')
  t.same(submissionOwnershipRequirement([business('h', null, 100)]).basis, 'NONE', 'a business at 100% is not a person')
})

t.test('submission requirement: control person when nobody reaches 25%', async (t) => {
  const nodes = [person('a', null, 24.999999999), person('b', null, 20), person('ctl', null, null, true), person('ctl2', null, 5, true)]
  t.same(submissionOwnershipRequirement(nodes), { satisfied: true, requiredPersonIds: ['ctl', 'ctl2'], missing: '', basis: 'CONTROL' })
  const none = submissionOwnershipRequirement([person('a', null, 20), person('b', null, 20)])
  t.equal(none.satisfied, false)
  t.same(none.requiredPersonIds, [])
  t.match(none.missing, /no individual holds 25% or more effective ownership.*control person/)
  t.equal(submissionOwnershipRequirement([]).satisfied, false, 'no owners at all')
  const bizControl: OwnershipNode = { ...business('biz', null, 10), hasControl: true }
  t.equal(submissionOwnershipRequirement([bizControl]).satisfied, false, 'a business cannot be the control person')
  t.equal(submissionOwnershipRequirement([person('p', null, 20)], 20).basis, 'OWNERSHIP', 'threshold is inclusive')
})

t.test('submission requirement: invalid or oversized trees are never satisfied', async (t) => {
  const cyc = submissionOwnershipRequirement([business('b1', 'b2', 10), business('b2', 'b1', 10), person('p', null, 50)])
  t.same(cyc, { satisfied: false, requiredPersonIds: [], missing: 'ownership tree has a cycle', basis: 'NONE' })
  t.match(submissionOwnershipRequirement([person('a', null, 80), person('b', null, 30)]), { satisfied: false, missing: /more than 100%/ })
  t.match(submissionOwnershipRequirement([person('a', 'nope', 80)]), { satisfied: false, missing: /parentEntityId/ })
  const big = Array.from({ length: MAX_OWNERSHIP_NODES + 1 }, (_, i) => person(`p${i}`, null, 0))
  t.match(submissionOwnershipRequirement(big), { satisfied: false, missing: /at most 500 owners/ })
  t.equal(MAX_OWNERSHIP_DEPTH, 10)
  t.equal(submissionOwnershipRequirement(chain(MAX_OWNERSHIP_DEPTH - 1, 100)).satisfied, true, '10 levels allowed')
  t.match(submissionOwnershipRequirement(chain(MAX_OWNERSHIP_DEPTH, 100)), { satisfied: false, missing: /at most 10 levels/ })
  t.throws(() => submissionOwnershipRequirement([person('p', null, 30)], 101), RangeError)
})

t.test('checkOwnershipLimits', async (t) => {
  t.same(checkOwnershipLimits([]), { ok: true })
  t.match(checkOwnershipLimits([person('a', null, 1), person('a', null, 2)]), { ok: false, code: 'ownership_duplicate_id', nodeIds: ['a'] })
  t.match(checkOwnershipLimits(chain(MAX_OWNERSHIP_DEPTH, 100)), { ok: false, code: 'ownership_too_deep', nodeIds: ['p'] })
  t.same(checkOwnershipLimits(chain(2, 100), { maxNodes: 3, maxDepth: 3 }), { ok: true })
  t.match(checkOwnershipLimits(chain(2, 100), { maxNodes: 2, maxDepth: 3 }), { ok: false, code: 'ownership_too_large' })
  // Cyclic input terminates: the walk stops after maxDepth + 1 steps.
  t.match(checkOwnershipLimits([business('b1', 'b2', 1), business('b2', 'b1', 1)]), { ok: false, code: 'ownership_too_deep' })
  t.match(
    checkOwnershipLimits([business('b1', 'b2', 1), business('b2', 'b1', 1)], { maxNodes: 10, maxDepth: Number.MAX_SAFE_INTEGER }),
    {
      ok: false,
      code: 'ownership_too_deep',
    },
    'even with an unbounded depth limit',
  )
  t.same(checkOwnershipLimits(chain(3, 100), { maxNodes: 10, maxDepth: Number.MAX_SAFE_INTEGER }), { ok: true })
})
