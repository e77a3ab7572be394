// `projections status`: each projector's checkpoint and how many events of $all lie after it.
// Read-only: it runs no projector, so it shows the lag the server's projections really have.
import { parseArgs } from 'node:util'
import type { Position } from '../../events/store/port.js'
import { START, STORE_LIMITS } from '../../events/store/port.js'
import { allProjectors } from '../../projections/allProjectors.js'
import { type CliCommand, parseOrUsage } from '../command.js'

export const STATUS_LIMITS = {
  /** Events counted past the lowest checkpoint; beyond it the lags are lower bounds. */
  maxScannedEvents: 1_000_000,
} as const

export const projectionsStatus: CliCommand = {
  words: ['projections', 'status'],
  usage: 'projections status',
  summary: 'print each projection\'s checkpoint and lag behind the event store head',
  parse(argv) {
    parseOrUsage(projectionsStatus, () => parseArgs({ args: argv, options: {}, strict: true, allowPositionals: false }))
    return async ({ runtime, out }) => {
      const rows = await runtime.db.selectFrom('projection_checkpoints').select(['name', 'position']).execute()
      const stored = new Map(rows.map((r) => [r.name, r.position as Position]))
      const checkpoints = allProjectors.map((p) => ({ name: p.name, position: stored.get(p.name) ?? START }))

      // One pass from the lowest checkpoint to the head counts every projector's lag; the port has
      // no "last event" read, so the head is the last event of that pass (or the checkpoint itself).
      // It is the last event readable in commit order: one whose transaction committed after a
      // still-running older writer's shows once that writer ends, as the projectors see it.
      const compare = (a: Position, b: Position) => runtime.store.comparePositions(a, b)
      const lowest = checkpoints.reduce((low, c) => (compare(c.position, low) < 0 ? c.position : low), checkpoints[0]?.position ?? START)
      const lags = new Map(checkpoints.map((c) => [c.name, 0]))
      let head: Position = lowest
      let scanned = 0
      let complete = true
      for (;;) {
        if (scanned >= STATUS_LIMITS.maxScannedEvents) {
          complete = false
          break
        }
        const events = await runtime.store.readAll({ from: head || undefined, maxCount: STORE_LIMITS.maxReadCount })
        if (events.length === 0) break
        for (const event of events) {
          for (const c of checkpoints) if (compare(event.position, c.position) > 0) lags.set(c.name, lags.get(c.name)! + 1)
        }
        scanned += events.length
        head = events[events.length - 1]!.position
      }
      await out.document({
        head: head || null,
        // False when the scan stopped at its bound: the head is not the real head, the lags are minimums.
        complete,
        projections: checkpoints.map((c) => ({ name: c.name, position: c.position || null, lag: lags.get(c.name)! })),
      })
    }
  },
}
