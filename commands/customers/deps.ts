// What the customer write routes need, passed in explicitly by server/app.ts.
import type { EventStore, Position } from '../../events/store/port.js'
import type { Environment } from '../../domain/shared/environment.js'

export type CustomerRouteDeps = {
  store: EventStore
  environment: Environment
  /** Resolves once the read models reflect `position` (bounded wait). */
  waitForProjections: (position: Position | undefined) => Promise<boolean>
  verification: { urlBase: string; sessionTtlMs: number }
}
