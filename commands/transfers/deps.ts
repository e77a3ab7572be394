// What the transfer write routes need from the server (built by its slice's plugin, server/areas/).
import type { Environment } from '../../domain/shared/environment.js'
import type { TransferFundingReads } from '../../domain/transfer/fundingReads.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'

export type TransferRouteDeps = {
  commands: CommandRuntime
  environment: Environment
  transferFunding: TransferFundingReads
}
