// The FX settings aggregate: one stream per organization (fxs_ + the organization id's random part)
// holding its FX switches, its customers' own spreads and its sandbox provider's behaviour. Set by
// the operator (CLI) and, in sandbox, by the organization itself.
import type { Decider } from '../decider.js'
import { conflict } from '../errors.js'
import type { FxSettingsEvent } from './events.js'
import { DEFAULT_SANDBOX_PROVIDER, FX_SETTINGS_LIMITS, type FxSettings, type SandboxProvider } from './settings.js'

export type FxSettingsState = {
  /** null until first configured: the environment's defaults apply (settings.ts). */
  settings: FxSettings | null
  customerSpreads: Readonly<Record<string, number>>
  provider: SandboxProvider | null
}

type Audit = { organizationId: string; configuredBy: string; now: string }

export type FxSettingsCommand =
  | ({ type: 'ConfigureFx'; changes: Partial<FxSettings>; defaults: FxSettings } & Audit)
  | ({ type: 'SetCustomerFxPricing'; customerId: string; spreadBps: number | null } & Audit)
  | ({ type: 'ConfigureSandboxProvider'; changes: Partial<SandboxProvider> } & Audit)

export function fxSettingsIdOf(organizationId: string): string {
  if (!organizationId.startsWith('org_')) throw new RangeError(`not an organization id: ${organizationId.slice(0, 64)}`)
  return `fxs_${organizationId.slice('org_'.length)}`
}

/** Only the fields given, so a partial change never writes `undefined` over a setting. */
function defined<T extends object>(changes: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<T>
}

export const fxSettingsDecider: Decider<FxSettingsState, FxSettingsCommand, FxSettingsEvent> = {
  initialState: () => ({ settings: null, customerSpreads: {}, provider: null }),

  decide(command, state) {
    const audit = { organizationId: command.organizationId, configuredBy: command.configuredBy, configuredAt: command.now }
    switch (command.type) {
      case 'ConfigureFx':
        return [
          {
            type: 'FxSettingsConfigured',
            data: { ...audit, settings: { ...(state.settings ?? command.defaults), ...defined(command.changes) } },
          },
        ]
      case 'SetCustomerFxPricing': {
        const known = state.customerSpreads[command.customerId] !== undefined
        if (command.spreadBps !== null && !known && Object.keys(state.customerSpreads).length >= FX_SETTINGS_LIMITS.maxCustomerPricings)
          throw conflict(
            'fx_customer_pricing_limit_reached',
            `An organization prices at most ${FX_SETTINGS_LIMITS.maxCustomerPricings} customers on their own; clear one first`,
          )
        return [{ type: 'FxCustomerPricingSet', data: { ...audit, customerId: command.customerId, spreadBps: command.spreadBps } }]
      }
      case 'ConfigureSandboxProvider':
        return [
          {
            type: 'FxSandboxProviderConfigured',
            data: { ...audit, provider: { ...(state.provider ?? DEFAULT_SANDBOX_PROVIDER), ...defined(command.changes) } },
          },
        ]
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'FxSettingsConfigured':
        return { ...state, settings: event.data.settings }
      case 'FxCustomerPricingSet': {
        const { [event.data.customerId]: _previous, ...others } = state.customerSpreads
        return {
          ...state,
          customerSpreads: event.data.spreadBps === null ? others : { ...others, [event.data.customerId]: event.data.spreadBps },
        }
      }
      case 'FxSandboxProviderConfigured':
        return { ...state, provider: event.data.provider }
    }
  },
}
