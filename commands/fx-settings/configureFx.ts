// The operator's change of an organization's FX settings (the CLI's `fx configure`): the switches,
// the spread, one customer's own spread, and in sandbox the provider's behaviour, each appended
// with the operator as the event's actor and configuredBy. An unknown organization or customer is refused.
import { loadCustomer } from '../customers/facts.js'
import { requireCustomer } from '../../domain/customer/guards.js'
import { notFound } from '../../domain/errors.js'
import type { FxSettingsCommand, FxSettingsState } from '../../domain/fx-settings/decider.js'
import { type FxSettings, type SandboxProvider, defaultFxSettings } from '../../domain/fx-settings/settings.js'
import { organizationDecider } from '../../domain/organization/decider.js'
import type { Environment } from '../../domain/shared/environment.js'
import { newId } from '../../domain/shared/ids.js'
import { streams } from '../../events/streams.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { fxSettingsCommands, fxSettingsStreamOf } from './fxSettingsCommands.js'

export type FxChange = {
  organizationId: string
  environment: Environment
  settings?: Partial<FxSettings>
  provider?: Partial<SandboxProvider>
  customer?: { customerId: string; spreadBps: number | null }
  configuredBy: string
  now: string
}

/** The commands one change makes on the organization's FX stream, in order: switches, provider, a customer's pricing. */
export function fxChangeCommands(change: FxChange): FxSettingsCommand[] {
  const audit = { organizationId: change.organizationId, configuredBy: change.configuredBy, now: change.now }
  return [
    ...(change.settings
      ? [{ type: 'ConfigureFx' as const, changes: change.settings, defaults: defaultFxSettings(change.environment), ...audit }]
      : []),
    ...(change.provider ? [{ type: 'ConfigureSandboxProvider' as const, changes: change.provider, ...audit }] : []),
    ...(change.customer ? [{ type: 'SetCustomerFxPricing' as const, ...change.customer, ...audit }] : []),
  ]
}

export async function configureFx(commands: Commands, change: FxChange, actor: string): Promise<FxSettingsState> {
  const { organizationId } = change
  const organization = await commands.load(organizationDecider, streams.organization(organizationId))
  if (organization.state.status === 'none') throw notFound('Organization', organizationId)
  if (change.customer)
    requireCustomer(await loadCustomer(commands, change.customer.customerId), { organizationId, customerId: change.customer.customerId })
  let state = (await commands.load(fxSettingsCommands.decider, fxSettingsStreamOf(organizationId))).state
  for (const command of fxChangeCommands(change)) {
    const result = await commands.handle(fxSettingsCommands.decider, fxSettingsCommands.streamOf(command), command, {
      organizationId,
      actor,
      requestId: newId('req'),
    })
    state = result.state
  }
  return state
}
