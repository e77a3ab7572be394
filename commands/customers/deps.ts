// What the customer write routes need, passed in explicitly by server/app.ts.
import type { EventStore, Position } from '../../events/store/port.js'

export type CustomerRouteDeps = {
  store: EventStore
  environment: 'sandbox' | 'production'
  /** Resolves once the read models reflect `position` (bounded wait). */
  waitForProjections: (position: Position | undefined) => Promise<boolean>
  verification: { urlBase: string; sessionTtlMs: number }
}
