// What the FX reads need from the read models: an organization's FX settings (or its environment's
// defaults), the sandbox provider's behaviour for it, and a customer's pricing and capabilities.
import type { Kysely } from 'kysely'
import type { z } from 'zod'
import { notFound } from '../../domain/errors.js'
import { DEFAULT_SANDBOX_PROVIDER, type FxSettings, type SandboxProvider, defaultFxSettings } from '../../domain/fx-settings/settings.js'
import type { CorridorUse } from '../../domain/fx-settings/capacity.js'
import { CORRIDOR_LIMITS_USD } from '../../domain/fx/corridorLimits.js'
import type { fxCustomerPricingResource, fxSettingsResource } from '../../domain/fx/resource.js'
import type { Environment } from '../../domain/shared/environment.js'
import { type SenderFacts, senderFactsOf } from '../../domain/transfer/capabilities.js'
import type { ReadDatabase } from '../../projections/schema.js'

export type FxView = {
  settings: FxSettings
  provider: SandboxProvider
  capacityUse: Readonly<Record<string, CorridorUse>>
  updatedAt: string | null
}

export type CustomerPricing = { facts: SenderFacts; spreadBps: number | undefined }

export function fxReads(db: Kysely<ReadDatabase>, environment: Environment) {
  async function fxOf(organizationId: string): Promise<FxView> {
    const row = await db
      .selectFrom('fx_settings')
      .select(['settings', 'sandbox_provider', 'capacity_use', 'updated_at'])
      .where('organization_id', '=', organizationId)
      .executeTakeFirst()
    return {
      settings: row?.settings ?? defaultFxSettings(environment),
      provider: row?.sandbox_provider ?? DEFAULT_SANDBOX_PROVIDER,
      capacityUse: row?.capacity_use ?? {},
      updatedAt: row?.settings || row?.sandbox_provider ? row.updated_at.toISOString() : null,
    }
  }
  async function customerOf(organizationId: string, customerId: string): Promise<CustomerPricing> {
    const row = await db
      .selectFrom('customers')
      .leftJoin('fx_customer_pricing as p', (join) =>
        join.onRef('p.customer_id', '=', 'customers.id').onRef('p.organization_id', '=', 'customers.organization_id'),
      )
      .select(['customers.state', 'p.spread_bps'])
      .where('customers.organization_id', '=', organizationId)
      .where('customers.id', '=', customerId)
      .executeTakeFirst()
    if (!row) throw notFound('Customer', customerId)
    return { facts: senderFactsOf(row.state), spreadBps: row.spread_bps ?? undefined }
  }
  return {
    fxOf,
    /** The customer's facts and own spread; 404 when the organization has no such customer. */
    customerOf,

    /** A customer's pricing as GET /v1/fx/customers/{customerId}/pricing answers it. */
    async customerPricing(organizationId: string, customerId: string): Promise<z.infer<typeof fxCustomerPricingResource>> {
      const [fx, customer] = await Promise.all([fxOf(organizationId), customerOf(organizationId, customerId)])
      return {
        customerId,
        spreadBps: customer.spreadBps ?? null,
        effectiveSpreadBps: customer.spreadBps ?? fx.settings.spreadBps,
        pricing: customer.spreadBps === undefined ? 'ORGANIZATION' : 'CUSTOMER',
      }
    },

    /** The settings as GET /v1/fx/settings answers them (the provider's behaviour in sandbox only). */
    async settingsResource(organizationId: string): Promise<z.infer<typeof fxSettingsResource>> {
      const fx = await fxOf(organizationId)
      const limits = CORRIDOR_LIMITS_USD[environment]
      return {
        organizationId,
        ...fx.settings,
        corridorLimitsUsd: { min: limits.min.toString(), max: limits.max.toString() },
        ...(environment === 'sandbox' ? { sandboxProvider: fx.provider } : {}),
        updatedAt: fx.updatedAt,
      }
    },
  }
}

export type FxReads = ReturnType<typeof fxReads>
