// The FX settings aggregate: one stream per organization (fxs_ + the organization id's random part)
// holding its FX switches, its customers' own spreads and its sandbox provider's behaviour. Set by
// the operator (CLI) and, in sandbox, by the organization itself.
import { z } from 'zod'
import type { Decider } from '../decider.js'
import { type ErrorExtra, conflict } from '../errors.js'
import { fxCapacityExhausted } from '../fx/errors.js'
import type { SnapshotCodec } from '../snapshot.js'
import { type CorridorUse, capacityCentsOf, usedAt } from './capacity.js'
import type { FxSettingsEvent } from './events.js'
import {
  DEFAULT_SANDBOX_PROVIDER,
  FX_SETTINGS_LIMITS,
  type FxSettings,
  type SandboxProvider,
  fxSettingsSchema,
  sandboxProviderSchema,
} from './settings.js'

export type FxSettingsState = {
  /** null until first configured: the environment's defaults apply (settings.ts). */
  settings: FxSettings | null
  customerSpreads: Readonly<Record<string, number>>
  provider: SandboxProvider | null
  /** Each corridor's capacity in use at its last reservation. */
  capacityUse: Readonly<Record<string, CorridorUse>>
}

type Audit = { organizationId: string; configuredBy: string; now: string }

export type FxSettingsCommand =
  | ({ type: 'ConfigureFx'; changes: Partial<FxSettings>; defaults: FxSettings } & Audit)
  | ({ type: 'SetCustomerFxPricing'; customerId: string; spreadBps: number | null } & Audit)
  | ({ type: 'ConfigureSandboxProvider'; changes: Partial<SandboxProvider> } & Audit)
  | {
      type: 'ReserveFxCapacity'
      organizationId: string
      corridor: string
      quoteId: string
      amountCents: bigint
      /** What the refusal's body carries (limits, requested). */
      refusal: ErrorExtra
      now: string
    }

export function fxSettingsIdOf(organizationId: string): string {
  if (!organizationId.startsWith('org_')) throw new RangeError(`not an organization id: ${organizationId.slice(0, 64)}`)
  return `fxs_${organizationId.slice('org_'.length)}`
}

/** Only the fields given, so a partial change never writes `undefined` over a setting. */
function defined<T extends object>(changes: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<T>
}

export const fxSettingsDecider: Decider<FxSettingsState, FxSettingsCommand, FxSettingsEvent> = {
  initialState: () => ({ settings: null, customerSpreads: {}, provider: null, capacityUse: {} }),

  decide(command, state) {
    if (command.type === 'ReserveFxCapacity') {
      const capacity = capacityCentsOf((state.provider ?? DEFAULT_SANDBOX_PROVIDER).capacityUsd)
      const used = usedAt(state.capacityUse[command.corridor], capacity, command.now) + command.amountCents
      if (used > capacity) throw fxCapacityExhausted(command.refusal)
      const { organizationId, corridor, quoteId } = command
      return [
        {
          type: 'FxCapacityReserved',
          data: {
            organizationId,
            corridor,
            quoteId,
            amountCents: command.amountCents.toString(),
            usedCents: used.toString(),
            reservedAt: command.now,
          },
        },
      ]
    }
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
      case 'FxCapacityReserved':
        return {
          ...state,
          capacityUse: { ...state.capacityUse, [event.data.corridor]: { usedCents: event.data.usedCents, at: event.data.reservedAt } },
        }
    }
  },

  snapshot: fxSettingsSnapshot(),
}

/** Snapshots every 200 events: a busy organization's stream grows by one reservation per quote. */
function fxSettingsSnapshot(): SnapshotCodec<FxSettingsState> {
  const schema = z.object({
    settings: fxSettingsSchema.nullable(),
    customerSpreads: z.record(z.string(), z.number().int()),
    provider: sandboxProviderSchema.nullable(),
    capacityUse: z.record(z.string(), z.object({ usedCents: z.string(), at: z.string() })),
  })
  return {
    version: 1,
    everyEvents: 200,
    encode: (state) => ({ ...state, customerSpreads: { ...state.customerSpreads }, capacityUse: { ...state.capacityUse } }),
    decode: (json) => schema.parse(json),
  }
}
