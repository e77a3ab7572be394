// The operator's configuration of an organization's credit line (the CLI; the sandbox simulation
// too): terms checked by the decider, appended with the operator as the event's actor and as
// configuredBy, so the facility's stream is its own audit trail. An unknown organization is refused.
import { notFound } from '../../domain/errors.js'
import type { FacilityCurrency } from '../../domain/liquidity-facility/events.js'
import type { FacilityState } from '../../domain/liquidity-facility/state.js'
import { organizationDecider } from '../../domain/organization/decider.js'
import { newId } from '../../domain/shared/ids.js'
import type { Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import { liquidityFacilityCommands } from './facilityCommands.js'
import type { Commands } from '../runtime/commandRuntime.js'

export type CreditLineTerms = {
  organizationId: string
  currency: FacilityCurrency
  creditLimitMinor: bigint
  maximumDrawMinor: bigint
  fundingFeeBpsPerHour: string
  feeCapHours: number
}

export async function configureCreditLine(
  commands: Commands,
  terms: CreditLineTerms & { configuredBy: string; now: string },
  origin: Omit<CommandOrigin, 'organizationId' | 'requestId'> & { requestId?: string },
): Promise<{ state: FacilityState; position: Position | undefined }> {
  const organization = await commands.load(organizationDecider, streams.organization(terms.organizationId))
  if (organization.state.status === 'none') throw notFound('Organization', terms.organizationId)
  const { decider, streamOf } = liquidityFacilityCommands
  const command = { type: 'ConfigureCreditLine' as const, network: 'SOLANA' as const, ...terms }
  const result = await commands.handle(decider, streamOf(command), command, {
    ...origin,
    organizationId: terms.organizationId,
    requestId: origin.requestId ?? newId('req'),
  })
  return { state: result.state, position: result.position }
}
