// How the liquidity facility's commands are handled: one stream per organization, so every draw
// and repayment of an organization is decided in turn (the runtime's per-stream queue and expected
// revision), and concurrent draws never pass the credit limit.
import { type LiquidityFacilityCommand, liquidityFacilityDecider } from '../../domain/liquidity-facility/decider.js'
import { facilityIdOf } from '../../domain/liquidity-facility/state.js'
import { streams } from '../../events/streams.js'

export const facilityStreamOf = (organizationId: string): string => streams.liquidityFacility(facilityIdOf(organizationId))

export const liquidityFacilityCommands = {
  decider: liquidityFacilityDecider,
  streamOf: (command: LiquidityFacilityCommand) => facilityStreamOf(command.organizationId),
}
