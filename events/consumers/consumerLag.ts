// How far behind each consumer is, for /health, /ready, /metrics and `projections status`: the
// events it handles past its checkpoint (not skipped by an operator), how old the oldest of them is,
// how stale the head is, and whether it is stalled (behind, and its checkpoint has not been written
// for a bound). Bounded: one indexed read of the head, one of the checkpoints, and a scan of at most
// `maxScannedEvents` marks (lagScan.ts); past it, a consumer's figures are lower bounds and say so.
import type { QueryExecutorProvider } from 'kysely'
import { type EventMark, type EventStore, type Position, START } from '../store/port.js'
import { readCheckpointTimes } from './checkpoints.js'
import { listSkips } from './consumerRecords.js'
import { scanMarks } from './lagScan.js'

export const CONSUMER_LAG_LIMITS = {
  /** Marks a health check or a scrape reads at most (the CLI asks for more). */
  defaultMaxScannedEvents: 10_000,
  /** Behind, and no checkpoint write for this long: stalled. */
  stalledAfterMs: 60_000,
  maxTargets: 1_000,
} as const

export type LagTarget = {
  /** Its checkpoint's name. */
  name: string
  /** The consumer group whose failures, skips and dead letters it shares. */
  group: string
  handles: (type: string) => boolean
  /** Its effects commit with the events (inline projections): always at the head. */
  atHead?: boolean
}

export type ConsumerLag = {
  name: string
  group: string
  /** Its checkpoint; the head for a consumer at the head; null when it never stored one. */
  position: Position | null
  lagEvents: number
  /** Age of the oldest event it has still to handle; 0 when it has none. */
  lagSeconds: number
  /** The scan stopped at its bound before the head: the lag is at least these figures. */
  lagIsLowerBound: boolean
  /** When its checkpoint was last written (null: never). */
  checkpointMovedAt: Date | null
  stalled: boolean
}

export type LagReport = {
  head: Position | null
  headRecordedAt: Date | null
  /** Now minus the newest readable event's time: how long nothing was appended. */
  headStalenessSeconds: number | null
  scannedEvents: number
  /** False when some figures are lower bounds. */
  complete: boolean
  consumers: ConsumerLag[]
}

export type LagOptions = { maxScannedEvents?: number; stalledAfterMs?: number }

const secondsBetween = (later: Date, earlier: Date) => Math.max(0, (later.getTime() - earlier.getTime()) / 1000)

export async function measureConsumerLag(
  deps: { store: EventStore; db: QueryExecutorProvider; now: Date },
  targets: readonly LagTarget[],
  options: LagOptions = {},
): Promise<LagReport> {
  if (targets.length > CONSUMER_LAG_LIMITS.maxTargets) throw new RangeError(`at most ${CONSUMER_LAG_LIMITS.maxTargets} consumers`)
  const { store, now } = deps
  const compare = (a: Position, b: Position) => store.comparePositions(a, b)
  const stalledAfterMs = options.stalledAfterMs ?? CONSUMER_LAG_LIMITS.stalledAfterMs
  const [head, stored, skips] = await Promise.all([store.readHead(), readCheckpointTimes(deps.db), listSkips(deps.db)])
  const headAt = head?.position ?? START
  const positionOf = (t: LagTarget): Position => (t.atHead ? headAt : (stored.get(t.name)?.position ?? START))
  const behind = targets.map(positionOf).filter((p) => compare(p, headAt) < 0)
  const starts = [...new Set(behind)].sort(compare)
  const scan = await scanMarks(store, starts, headAt, options.maxScannedEvents ?? CONSUMER_LAG_LIMITS.defaultMaxScannedEvents)
  const skipped = new Set(skips.map((s) => `${s.consumer}/${s.eventId}`))

  const lagOf = (target: LagTarget): ConsumerLag => {
    const position = positionOf(target)
    const movedAt = stored.get(target.name)?.updatedAt ?? null
    let lagEvents = 0
    let oldest: EventMark | undefined
    for (const mark of scan.marks) {
      if (compare(mark.position, position) <= 0 || !target.handles(mark.type) || skipped.has(`${target.group}/${mark.id}`)) continue
      lagEvents += 1
      oldest ??= mark
    }
    const lagIsLowerBound = scan.gaps.some((gap) => compare(gap, position) >= 0)
    const stalled = lagEvents > 0 && (movedAt === null || now.getTime() - movedAt.getTime() > stalledAfterMs)
    return {
      name: target.name,
      group: target.group,
      position: position || null,
      lagEvents,
      lagSeconds: oldest ? secondsBetween(now, oldest.recordedAt) : 0,
      lagIsLowerBound,
      checkpointMovedAt: movedAt,
      stalled,
    }
  }

  return {
    head: head?.position ?? null,
    headRecordedAt: head?.recordedAt ?? null,
    headStalenessSeconds: head ? secondsBetween(now, head.recordedAt) : null,
    scannedEvents: scan.scanned,
    complete: scan.gaps.length === 0,
    consumers: targets.map(lagOf),
  }
}
