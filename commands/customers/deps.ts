// What the customer write routes need (built by its slice's plugin, server/areas/customers.ts).
import type { Environment } from '../../domain/shared/environment.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'

export type CustomerRouteDeps = {
  commands: CommandRuntime
  /** Facts from other streams a decision needs (facts.ts). */
  environment: Environment
  verification: { urlBase: string; sessionTtlMs: number }
}
