// Sandbox: configure the organization's own credit line, as the operator's CLI does in production
// (`liquidity configure`), so an integration can exercise draws and repayments. 403 in production.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'

import { configureCreditLineBody, liquidityFacilityResource } from '../../domain/liquidity-facility/resource.js'
import type { Environment } from '../../domain/shared/environment.js'
import { errorResponses } from '../../http/errorBody.js'
import { idempotencyHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { deciderBinding } from '../runtime/commandRuntime.js'
import { liquidityFacilityCommands } from '../liquidity-facility/facilityCommands.js'
import type { LiquidityFacilityRouteDeps } from '../liquidity-facility/routes.js'
import { sandboxOnly } from './sandboxOnly.js'

const binding = deciderBinding({ ...liquidityFacilityCommands, toResource: (state) => state })

export const sandboxCreditLineRoutes: FastifyPluginAsyncZod<LiquidityFacilityRouteDeps & { environment: Environment }> = async (
  app,
  deps,
) => {
  const facility = deps.commands.bind(binding)
  sandboxOnly(app, deps.environment)

  app.put(
    '/sandbox/liquidity/facility',
    {
      schema: {
        operationId: 'configureSandboxLiquidityFacility',
        tags: ['Sandbox'],
        summary: 'Sandbox: configure your credit line',
        description:
          'Sandbox only (403 sandbox_only in production, where the operator configures credit lines). Sets creditLimit, ' +
          'maximumDrawAmount (at most the limit), fundingFeeBpsPerHour, feeCapHours and the currency (USDC or USDT, on Solana). ' +
          'Open draws keep the fee terms they were taken under. 422 invalid_credit_line (details name each bad field); 409 ' +
          'credit_limit_below_borrowed; 409 facility_has_open_draws (a currency change while draws are open). Answers the ' +
          'facility record, as GET /v1/liquidity/facility does.',
        headers: idempotencyHeaders,
        body: configureCreditLineBody,
        response: { 200: liquidityFacilityResource, ...errorResponses(403, 409, 422) },
      },
    },
    async (request) => {
      const { organizationId, keyId } = principalOf(request)
      const now = deps.clock().toISOString()
      const body = request.body
      await facility.handleToState(request, {
        type: 'ConfigureCreditLine',
        organizationId,
        now,
        currency: body.currency,
        network: 'SOLANA',
        creditLimitMinor: BigInt(body.creditLimit),
        maximumDrawMinor: BigInt(body.maximumDrawAmount),
        fundingFeeBpsPerHour: body.fundingFeeBpsPerHour,
        feeCapHours: body.feeCapHours,
        configuredBy: `sandbox:${keyId}`,
      })
      return deps.liquidityFacility.facility(organizationId, now)
    },
  )
}
