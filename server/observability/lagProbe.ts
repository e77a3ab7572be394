// One app's view of consumer lag for /health, /ready and /metrics: measureConsumerLag over the
// runtime's consumers, at most one measurement in flight (callers arriving meanwhile share it), so
// a burst of probes costs the database one bounded scan, not one each.
import type { QueryExecutorProvider } from 'kysely'
import { type LagReport, measureConsumerLag } from '../../events/consumers/consumerLag.js'
import type { EventStore } from '../../events/store/port.js'
import type { Runtime } from '../runtime.js'
import { lagTargets } from './lagTargets.js'

export type LagProbe = { measure(): Promise<LagReport> }

export function createLagProbe(deps: {
  runtime: Pick<Runtime, 'projectionMode' | 'runner'>
  store: EventStore
  db: QueryExecutorProvider
  clock: () => Date
}): LagProbe {
  const targets = lagTargets(deps.runtime)
  let inFlight: Promise<LagReport> | undefined
  return {
    measure(): Promise<LagReport> {
      inFlight ??= measureConsumerLag({ store: deps.store, db: deps.db, now: deps.clock() }, targets).finally(() => {
        inFlight = undefined
      })
      return inFlight
    },
  }
}
