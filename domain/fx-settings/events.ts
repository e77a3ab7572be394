// Events of an organization's FX settings: each carries the whole value it sets, so a reader (and
// the audit of who set it) needs only the latest event of its kind.
import { z } from 'zod'
import { FX_SETTINGS_LIMITS, fxSettingsSchema, sandboxProviderSchema, spreadBpsSchema } from './settings.js'

const id = z.string().max(64)
const audit = {
  /** `cli:<user>`, an operator's name, or `sandbox:<key id>`. */
  configuredBy: z.string().max(FX_SETTINGS_LIMITS.configuredByMaxLength + 40),
  configuredAt: z.iso.datetime(),
}

export const FxSettingsConfigured = z.object({ organizationId: id, settings: fxSettingsSchema, ...audit })

/** A customer's own spread (customer-specific pricing); null returns it to the organization's. */
export const FxCustomerPricingSet = z.object({
  organizationId: id,
  customerId: id,
  spreadBps: spreadBpsSchema.nullable(),
  ...audit,
})

export const FxSandboxProviderConfigured = z.object({ organizationId: id, provider: sandboxProviderSchema, ...audit })

/** A quote took part of a corridor's capacity (sandbox provider); usedCents is the corridor's use right after. */
export const FxCapacityReserved = z.object({
  organizationId: id,
  corridor: z.string().regex(/^[A-Z]{3,5}\/[A-Z]{3,5}$/),
  quoteId: id,
  amountCents: z.string().regex(/^\d{1,40}$/),
  usedCents: z.string().regex(/^\d{1,40}$/),
  reservedAt: z.iso.datetime(),
})

export const fxSettingsEventSchemas = {
  FxSettingsConfigured,
  FxCustomerPricingSet,
  FxSandboxProviderConfigured,
  FxCapacityReserved,
} as const

export type FxSettingsEvent =
  | { type: 'FxSettingsConfigured'; data: z.infer<typeof FxSettingsConfigured> }
  | { type: 'FxCustomerPricingSet'; data: z.infer<typeof FxCustomerPricingSet> }
  | { type: 'FxSandboxProviderConfigured'; data: z.infer<typeof FxSandboxProviderConfigured> }
  | { type: 'FxCapacityReserved'; data: z.infer<typeof FxCapacityReserved> }
