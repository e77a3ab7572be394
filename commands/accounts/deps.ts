// What the account write routes need from the server (built by its slice's plugin, server/areas/).
import type { IncomingMoneyReads } from '../../domain/account/incomingMoney.js'
import type { Environment } from '../../domain/shared/environment.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'

export type AccountRouteDeps = {
  commands: CommandRuntime
  environment: Environment
  /** What is on its way to an account, read before closing it. */
  incomingMoney: IncomingMoneyReads
}
