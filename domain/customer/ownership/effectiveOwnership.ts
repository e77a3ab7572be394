// Ownership trees of a business customer: structural checks, effective ownership, and
// the submission rule (every individual with >= 25% effective ownership, or else a
// control person). Pure functions; the aggregate supplies the nodes.
//
// Arithmetic: a percentage is read as an integer number of nano-percent (1e-9 %),
// i.e. rounded to 9 decimals once on input. Level sums are then exact integer sums
// (33.33 + 33.33 + 33.34 is exactly 100), and effective ownership is an exact BigInt
// fraction, rounded to 9 decimals only once at the end. No float drift accumulates.

export type OwnershipNode = {
  id: string
  kind: 'INDIVIDUAL' | 'BUSINESS'
  parentId: string | null
  ownershipPercentage: number | null
  hasOwnership: boolean
  hasControl: boolean
}

export type OwnershipTreeErrorCode = 'ownership_cycle' | 'ownership_over_100' | 'ownership_parent_missing' | 'ownership_parent_not_business'

export type OwnershipTreeCheck = { ok: true } | { ok: false; code: OwnershipTreeErrorCode; message: string; nodeIds: string[] }

/** Guards against huge inputs: a real ownership chart is far smaller. */
export const MAX_OWNERSHIP_NODES = 500
/** Levels from a direct owner (depth 1) down to the deepest owner. */
export const MAX_OWNERSHIP_DEPTH = 10
/** Spec "Limits": controlling ownership threshold for business submission. */
export const DEFAULT_OWNERSHIP_THRESHOLD = 25

const SCALE = 1_000_000_000 // nano-percent per percent
const HUNDRED_PERCENT = 100 * SCALE

/** A valid percentage (0-100, finite) in nano-percent; undefined when out of range. */
function toUnits(p: number): number | undefined {
  if (!Number.isFinite(p) || p < 0 || p > 100) return undefined
  return Math.round(p * SCALE)
}

function fail(code: OwnershipTreeErrorCode, message: string, nodeIds: string[]): OwnershipTreeCheck {
  return { ok: false, code, message, nodeIds }
}

/**
 * Structural validity, first failure wins, in this order: percentage range, missing
 * parent, parent not a business, cycles, per-level sums over 100. null parentId means
 * a direct owner of the customer; null percentage counts as 0 in sums.
 * Iterative throughout, so even a huge input cannot overflow the stack.
 */
export function checkOwnershipTree(nodes: OwnershipNode[]): OwnershipTreeCheck {
  const out = nodes.filter((n) => n.ownershipPercentage !== null && toUnits(n.ownershipPercentage) === undefined)
  if (out.length > 0) {
    return fail(
      'ownership_over_100',
      'ownershipPercentage must be between 0 and 100',
      out.map((n) => n.id),
    )
  }

  const byId = new Map<string, OwnershipNode>()
  for (const n of nodes) byId.set(n.id, n)

  const orphans = nodes.filter((n) => n.parentId !== null && !byId.has(n.parentId))
  if (orphans.length > 0) {
    return fail(
      'ownership_parent_missing',
      'parentEntityId does not name an owner of this customer',
      orphans.map((n) => n.id),
    )
  }

  const underIndividual = nodes.filter((n) => n.parentId !== null && byId.get(n.parentId)?.kind !== 'BUSINESS')
  if (underIndividual.length > 0) {
    return fail(
      'ownership_parent_not_business',
      'only an associated business can own other owners',
      underIndividual.map((n) => n.id),
    )
  }

  const cycle = findCycle(nodes, byId)
  if (cycle) return fail('ownership_cycle', 'ownership tree has a cycle', cycle)

  const sums = new Map<string | null, { units: number; ids: string[] }>()
  for (const n of nodes) {
    const level = sums.get(n.parentId) ?? { units: 0, ids: [] }
    level.units += n.ownershipPercentage === null ? 0 : (toUnits(n.ownershipPercentage) ?? 0)
    level.ids.push(n.id)
    sums.set(n.parentId, level)
  }
  for (const [parentId, level] of sums) {
    if (level.units > HUNDRED_PERCENT) {
      const where = parentId === null ? 'direct owners of the customer' : `owners of ${parentId}`
      return fail('ownership_over_100', `ownership of the ${where} adds up to more than 100%`, level.ids)
    }
  }
  return { ok: true }
}

/** The ids on the first cycle found (in parent order), or undefined. Each node has one parent. */
function findCycle(nodes: OwnershipNode[], byId: Map<string, OwnershipNode>): string[] | undefined {
  const done = new Set<string>()
  for (const start of nodes) {
    const onPath = new Map<string, number>()
    const path: string[] = []
    let cur: OwnershipNode | undefined = start
    while (cur && !done.has(cur.id)) {
      const seenAt = onPath.get(cur.id)
      if (seenAt !== undefined) return path.slice(seenAt)
      onPath.set(cur.id, path.length)
      path.push(cur.id)
      cur = cur.parentId === null ? undefined : byId.get(cur.parentId)
    }
    for (const id of path) done.add(id)
  }
  return undefined
}

export type OwnershipLimitsCheck =
  | { ok: true }
  | { ok: false; code: 'ownership_too_large' | 'ownership_too_deep' | 'ownership_duplicate_id'; message: string; nodeIds: string[] }

/**
 * Size, depth and id-uniqueness guards, kept apart from checkOwnershipTree so its
 * error codes stay exactly the four the API documents. Run checkOwnershipTree first:
 * cyclic input terminates here but is reported as too deep.
 */
export function checkOwnershipLimits(
  nodes: OwnershipNode[],
  limits: { maxNodes: number; maxDepth: number } = { maxNodes: MAX_OWNERSHIP_NODES, maxDepth: MAX_OWNERSHIP_DEPTH },
): OwnershipLimitsCheck {
  if (nodes.length > limits.maxNodes) {
    return { ok: false, code: 'ownership_too_large', message: `an ownership tree may have at most ${limits.maxNodes} owners`, nodeIds: [] }
  }
  const byId = new Map<string, OwnershipNode>()
  const dupes = new Set<string>()
  for (const n of nodes) {
    if (byId.has(n.id)) dupes.add(n.id)
    byId.set(n.id, n)
  }
  if (dupes.size > 0) {
    return { ok: false, code: 'ownership_duplicate_id', message: 'owner ids must be unique', nodeIds: [...dupes] }
  }
  // An acyclic tree is at most nodes.length deep, so walks are bounded even for a huge
  // maxDepth; a cycle walks past that bound and so counts as too deep.
  const bound = Math.min(limits.maxDepth, nodes.length)
  const tooDeep: string[] = []
  for (const n of nodes) {
    let depth = 1
    let cur: OwnershipNode | undefined = n
    while (cur?.parentId != null && depth <= bound) {
      cur = byId.get(cur.parentId)
      if (cur) depth += 1
    }
    if (depth > bound) tooDeep.push(n.id)
  }
  if (tooDeep.length > 0) {
    return {
      ok: false,
      code: 'ownership_too_deep',
      message: `ownership may be nested at most ${limits.maxDepth} levels deep`,
      nodeIds: tooDeep,
    }
  }
  return { ok: true }
}

/** Exact effective holding as a fraction of 100%: num / den (den = HUNDRED_PERCENT^k). */
type Fraction = { num: bigint; den: bigint }
const ZERO: Fraction = { num: 0n, den: 1n }
const BIG_HUNDRED = BigInt(HUNDRED_PERCENT)

/** The node's own share of its parent, exactly; null percentage = unquantified = 0. */
function share(n: OwnershipNode): Fraction {
  const units = n.ownershipPercentage === null ? 0 : (toUnits(n.ownershipPercentage) ?? 0)
  return { num: BigInt(units), den: BIG_HUNDRED }
}

/** Nano-percent of the customer held, rounded half up once. */
function exactUnits(f: Fraction): bigint {
  return (f.num * BIG_HUNDRED + f.den / 2n) / f.den
}

/** Effective holdings in nano-percent (integers), by node id. */
function effectiveUnits(nodes: OwnershipNode[]): Map<string, bigint> {
  if (nodes.length > MAX_OWNERSHIP_NODES) {
    throw new RangeError(`ownership tree larger than ${MAX_OWNERSHIP_NODES} nodes`)
  }
  const byId = new Map<string, OwnershipNode>()
  for (const n of nodes) byId.set(n.id, n)
  const memo = new Map<string, Fraction>()
  for (const start of nodes) {
    // Walk up to a known ancestor or the top, then fill the path back down.
    const path: OwnershipNode[] = []
    const onPath = new Set<string>()
    let base: Fraction | undefined
    let cur: OwnershipNode | undefined = start
    while (base === undefined) {
      if (!cur || onPath.has(cur.id)) {
        base = ZERO // missing parent or cycle: nothing is held through it
      } else if (memo.has(cur.id)) {
        base = memo.get(cur.id)
      } else {
        path.push(cur)
        onPath.add(cur.id)
        if (cur.parentId === null) base = { num: 1n, den: 1n }
        else cur = byId.get(cur.parentId)
      }
    }
    let acc: Fraction = base ?? ZERO
    for (let i = path.length - 1; i >= 0; i--) {
      const node = path[i] as OwnershipNode
      const s = share(node)
      acc = acc.num === 0n || s.num === 0n ? ZERO : { num: acc.num * s.num, den: acc.den * s.den }
      memo.set(node.id, acc)
    }
  }
  const result = new Map<string, bigint>()
  for (const n of nodes) result.set(n.id, exactUnits(memo.get(n.id) ?? ZERO))
  return result
}

/**
 * Percent of the customer held by each node: the product of percentages down the
 * tree, exact, rounded to 9 decimals at the end (50% of 50% of 100% is exactly 25).
 * A null percentage is unquantified and gives 0 (and 0 to everyone beneath it).
 * Nodes cut off by a missing parent or a cycle get 0; validate first with
 * checkOwnershipTree. Throws RangeError above MAX_OWNERSHIP_NODES nodes.
 */
export function effectiveOwnership(nodes: OwnershipNode[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const [id, units] of effectiveUnits(nodes)) out.set(id, Number(units) / SCALE)
  return out
}

export type OwnershipRequirement = {
  satisfied: boolean
  requiredPersonIds: string[]
  missing: string
  /** Why persons are required: by ownership, by control (none reached the threshold), or neither. */
  basis: 'OWNERSHIP' | 'CONTROL' | 'NONE'
}

/**
 * The business submission rule. Individuals at or above `threshold` effective percent
 * are required (compared on the same 9-decimal value effectiveOwnership reports). If
 * none reaches it, the INDIVIDUAL control persons are listed instead; any one of them
 * satisfies the rule. Invalid or oversized trees are never satisfied; `missing` says why.
 */
export function submissionOwnershipRequirement(nodes: OwnershipNode[], threshold = DEFAULT_OWNERSHIP_THRESHOLD): OwnershipRequirement {
  // Size first (cheap guard), then structure (so a cycle is reported as a cycle, not as
  // excessive depth), then depth and duplicate ids.
  if (nodes.length > MAX_OWNERSHIP_NODES) {
    return {
      satisfied: false,
      requiredPersonIds: [],
      missing: `an ownership tree may have at most ${MAX_OWNERSHIP_NODES} owners`,
      basis: 'NONE',
    }
  }
  const tree = checkOwnershipTree(nodes)
  if (!tree.ok) return { satisfied: false, requiredPersonIds: [], missing: tree.message, basis: 'NONE' }
  const limits = checkOwnershipLimits(nodes)
  if (!limits.ok) return { satisfied: false, requiredPersonIds: [], missing: limits.message, basis: 'NONE' }

  const thresholdUnits = toUnits(threshold)
  if (thresholdUnits === undefined) throw new RangeError('threshold must be between 0 and 100')
  const effective = effectiveUnits(nodes)
  const owners = nodes.filter((n) => n.kind === 'INDIVIDUAL' && (effective.get(n.id) ?? 0n) >= BigInt(thresholdUnits))
  if (owners.length > 0) {
    return { satisfied: true, requiredPersonIds: owners.map((n) => n.id), missing: '', basis: 'OWNERSHIP' }
  }
  const controllers = nodes.filter((n) => n.kind === 'INDIVIDUAL' && n.hasControl)
  if (controllers.length > 0) {
    return { satisfied: true, requiredPersonIds: controllers.map((n) => n.id), missing: '', basis: 'CONTROL' }
  }
  return {
    satisfied: false,
    requiredPersonIds: [],
    missing: `no individual holds ${threshold}% or more effective ownership, so an individual control person (hasControl) is required`,
    basis: 'NONE',
  }
}
