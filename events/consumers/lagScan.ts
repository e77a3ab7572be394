// The bounded read behind consumer lag: the marks (no data) of $all from each distinct checkpoint
// towards the head, so a health check costs the same on a store of a million events as on a
// thousand. Each stretch between one checkpoint and the next gets an equal share of the budget; a
// stretch cut short leaves a gap, and the lag of every consumer before a gap is a lower bound.
import { type EventMark, type EventStore, type Position, STORE_LIMITS } from '../store/port.js'

export type LagScan = {
  /** In commit order, none past the head. */
  marks: EventMark[]
  /** Where a stretch was cut: what lies after each, up to the next checkpoint or the head, was not read. */
  gaps: Position[]
  scanned: number
}

/** `starts`: the distinct checkpoints behind the head, in commit order. */
export async function scanMarks(store: EventStore, starts: readonly Position[], head: Position, maxScanned: number): Promise<LagScan> {
  const compare = (a: Position, b: Position) => store.comparePositions(a, b)
  const scan: LagScan = { marks: [], gaps: [], scanned: 0 }
  const share = Math.max(1, Math.floor(maxScanned / Math.max(1, starts.length)))
  let cursor: Position | undefined
  for (let i = 0; i < starts.length; i++) {
    const until = starts[i + 1] ?? head
    // A stretch that read past the next checkpoint already covers the start of this one.
    if (cursor === undefined || compare(cursor, starts[i]!) < 0) cursor = starts[i]!
    let budget = Math.min(share, maxScanned - scan.scanned)
    while (budget > 0 && compare(cursor, until) < 0) {
      const page = await store.readAllMarks({ from: cursor || undefined, maxCount: Math.min(budget, STORE_LIMITS.maxReadCount) })
      if (page.length === 0) break
      for (const mark of page) if (compare(mark.position, head) <= 0) scan.marks.push(mark)
      scan.scanned += page.length
      budget -= page.length
      cursor = page[page.length - 1]!.position
    }
    if (compare(cursor, until) < 0) scan.gaps.push(cursor)
  }
  return scan
}
