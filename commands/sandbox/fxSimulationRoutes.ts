// Sandbox: an organization sets its own FX switches and pricing, as the operator's CLI does in
// production (`fx configure`), and tells the sandbox liquidity provider how to behave, so an
// integration can produce every FX answer on purpose. 403 sandbox_only in production.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { requireCustomer } from '../../domain/customer/guards.js'
import { fxCustomerPricingBody, fxCustomerPricingResource, fxSettingsChangeBody, fxSettingsResource } from '../../domain/fx/resource.js'
import type { Environment } from '../../domain/shared/environment.js'
import { errorResponses } from '../../http/errorBody.js'
import { idempotencyHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { principalOf } from '../../http/principal.js'
import { loadCustomer } from '../customers/facts.js'
import { fxChangeCommands } from '../fx-settings/configureFx.js'
import { fxSettingsCommands } from '../fx-settings/fxSettingsCommands.js'
import { type CommandRuntime, deciderBinding } from '../runtime/commandRuntime.js'
import { sandboxOnly } from './sandboxOnly.js'

const binding = deciderBinding({ ...fxSettingsCommands, toResource: (state) => state })

export type FxSimulationDeps = {
  commands: CommandRuntime
  environment: Environment
  clock: () => Date
  /** The settings as GET /v1/fx/settings answers them. */
  settingsResource(organizationId: string): Promise<z.infer<typeof fxSettingsResource>>
  /** A customer's pricing as GET /v1/fx/customers/{customerId}/pricing answers it. */
  customerPricing(organizationId: string, customerId: string): Promise<z.infer<typeof fxCustomerPricingResource>>
}

export const sandboxFxRoutes: FastifyPluginAsyncZod<FxSimulationDeps> = async (app, deps) => {
  const fx = deps.commands.bind(binding)
  sandboxOnly(app, deps.environment)

  app.put(
    '/sandbox/fx/settings',
    {
      schema: {
        operationId: 'setSandboxFxSettings',
        tags: ['Sandbox'],
        summary: 'Sandbox: set your FX switches, pricing and provider behaviour',
        description:
          'Sandbox only (403 sandbox_only in production, where the operator sets them with `fx configure`). Every field is ' +
          'optional; the ones given replace the current values. sandboxProvider.available false makes every rate answer 422 ' +
          'fx_quote_temporarily_unavailable; a sandboxProvider.capacityUsd below the corridor minimum makes it 422 ' +
          'fx_quote_capacity_exhausted. Rates already served stay cached up to 30 seconds. Answers the settings as GET ' +
          '/v1/fx/settings does.',
        headers: idempotencyHeaders,
        body: fxSettingsChangeBody,
        response: { 200: fxSettingsResource, ...errorResponses(403) },
      },
    },
    async (request) => {
      const { organizationId, keyId } = principalOf(request)
      const { sandboxProvider, ...changes } = request.body
      const commands = fxChangeCommands({
        organizationId,
        environment: deps.environment,
        // An empty body still records who looked at the settings: a change of nothing.
        ...(Object.keys(changes).length > 0 || sandboxProvider === undefined ? { settings: changes } : {}),
        ...(sandboxProvider !== undefined ? { provider: sandboxProvider } : {}),
        configuredBy: `sandbox:${keyId}`,
        now: deps.clock().toISOString(),
      })
      for (const command of commands) await fx.handleToState(request, command)
      return deps.settingsResource(organizationId)
    },
  )

  app.put(
    '/sandbox/fx/customers/:customerId/pricing',
    {
      schema: {
        operationId: 'setSandboxFxCustomerPricing',
        tags: ['Sandbox'],
        summary: 'Sandbox: price one customer on its own',
        description:
          'Sandbox only (403 sandbox_only in production, where the operator sets it with `fx configure --customer`). The ' +
          'customer’s spread in basis points replaces the organization’s on its rates and quotes; null returns it to the ' +
          'organization’s. 404 for a customer of another organization; 409 fx_customer_pricing_limit_reached past 1 000 customers.',
        headers: idempotencyHeaders,
        params: idParam('customerId', 'cus_', 'Customer'),
        body: fxCustomerPricingBody,
        response: { 200: fxCustomerPricingResource, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => {
      const { organizationId, keyId } = principalOf(request)
      const { customerId } = request.params
      requireCustomer(await loadCustomer(deps.commands, customerId), { organizationId, customerId })
      const change = { customerId, spreadBps: request.body.spreadBps }
      const now = deps.clock().toISOString()
      for (const command of fxChangeCommands({
        organizationId,
        environment: deps.environment,
        customer: change,
        configuredBy: `sandbox:${keyId}`,
        now,
      }))
        await fx.handleToState(request, command)
      return deps.customerPricing(organizationId, customerId)
    },
  )
}
