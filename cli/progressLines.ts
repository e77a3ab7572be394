// Progress lines of a rebuild or rollback on stderr, at most one a second (and one when the switch
// starts): events read, events per second, and, from the head of $all read at each line, the total
// expected and the time left. Plain words for a person; with --json one JSON object a line.
import type { EventStore } from '../events/store/port.js'
import { logShare } from '../events/store/positions.js'
import { type ProgressSample, addSample, estimateProgress } from '../projections/runtime/progressEstimate.js'
import type { SwitchPhase, SwitchProgress } from '../projections/runtime/switchVersion.js'
import type { Output } from './output.js'

export const PROGRESS_LINE_LIMITS = {
  /** At most one line this often (the head is read once per line). */
  intervalMs: 1_000,
} as const

const count = (n: number) => Math.round(n).toLocaleString('en-US')

export function duration(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)} s`
  if (seconds < 90) return `${Math.round(seconds)} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 90) return `${minutes} min ${Math.round(seconds % 60)} s`
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

export type ProgressLines = (progress: SwitchProgress) => Promise<void>

export function progressLines(deps: {
  operation: 'rebuild' | 'rollback'
  store: EventStore
  out: Output
  json: boolean
  nowMs?: () => number
}): ProgressLines {
  const now = deps.nowMs ?? Date.now
  let samples: ProgressSample[] = [{ atMs: now(), events: 0 }]
  let lastLineMs = now()
  let lastPhase: SwitchPhase | undefined
  return async (p) => {
    const at = now()
    const phaseChanged = p.phase !== lastPhase
    lastPhase = p.phase
    if (!phaseChanged && at - lastLineMs < PROGRESS_LINE_LIMITS.intervalMs) return
    lastLineMs = at
    samples = addSample(samples, { atMs: at, events: p.events })
    const head = await deps.store.readHead()
    const estimate = estimateProgress(samples, head ? logShare(p.from, p.position, head.position) : undefined)
    if (deps.json) {
      const { projection, phase, events, position } = p
      await deps.out.progress(JSON.stringify({ progress: { operation: deps.operation, projection, phase, events, position, ...estimate } }))
      return
    }
    const prefix = `${deps.operation} ${p.projection}`
    if (p.phase === 'switch') {
      await deps.out.progress(`${prefix}: ${count(p.events)} events read; switching (the last events under the lock, then the tables)`)
      return
    }
    const of = estimate.estimatedTotal === undefined ? '' : ` of ~${count(estimate.estimatedTotal)}`
    const percent = estimate.percent === undefined ? '' : ` (${Math.floor(estimate.percent)}%)`
    const left = estimate.secondsLeft === undefined || estimate.secondsLeft < 0.5 ? '' : `, ~${duration(estimate.secondsLeft)} left`
    await deps.out.progress(
      `${prefix}: ${p.phase}, ${count(p.events)}${of} events${percent}, ${count(estimate.eventsPerSecond)} events/s${left}`,
    )
  }
}
