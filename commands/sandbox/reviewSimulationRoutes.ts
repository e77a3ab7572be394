// Sandbox: drive a customer's review to an outcome, deterministically. 403 in production.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { customerIdParams } from '../../http/customerParams.js'
import { writeHeaders } from '../../http/headers.js'
import { REVIEW_OUTCOMES } from '../../domain/customer/enums.js'
import { CUSTOMER_LIMITS } from '../../domain/customer/limits.js'
import { customerResource } from '../../domain/customer/resource.js'

import { errorResponses } from '../../http/errorBody.js'
import { principalOf } from '../../http/principal.js'
import { customerCommands } from '../customers/customerCommands.js'
import type { CustomerRouteDeps } from '../customers/deps.js'
import { sandboxOnly } from './sandboxOnly.js'

const simulateReviewBody = z.object({
  outcome: z.enum(REVIEW_OUTCOMES).describe('APPROVED, REJECTED or NEEDS_MORE_INFORMATION'),
  reasons: z
    .array(z.string().trim().min(1).max(CUSTOMER_LIMITS.reviewReasonMaxLength))
    .max(CUSTOMER_LIMITS.reviewReasonsMax)
    .default([])
    .describe('Shown as statusReasons (what more information is needed, why rejected)'),
})

export const sandboxReviewSimulationRoutes: FastifyPluginAsyncZod<Pick<CustomerRouteDeps, 'commands' | 'environment'>> = async (
  app,
  deps,
) => {
  const customers = deps.commands.bind(customerCommands)
  sandboxOnly(app, deps.environment)

  app.post(
    '/sandbox/customers/:id/simulate-review',
    {
      schema: {
        operationId: 'simulateCustomerReview',
        tags: ['Sandbox'],
        summary: 'Sandbox: complete the review of a customer under review',
        description:
          'Sandbox only (403 sandbox_only in production). The customer must be UNDER_REVIEW (409 customer_not_under_review). APPROVED ' +
          'emits customer.status_changed and customer.verified and completes submitted verification sessions; REJECTED and ' +
          'NEEDS_MORE_INFORMATION emit customer.status_changed and fail them. A NEEDS_MORE_INFORMATION customer can save data and ' +
          'submit again. The change is applied before the 202 answer.',
        headers: writeHeaders,
        params: customerIdParams,
        body: simulateReviewBody,
        response: { 202: customerResource, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const customer = await customers.handle(request, {
        type: 'SimulateReview',
        organizationId: principalOf(request).organizationId,
        customerId: request.params.id,
        now: new Date().toISOString(),
        outcome: request.body.outcome,
        reasons: request.body.reasons,
      })
      return reply.code(202).send(customer)
    },
  )
}
