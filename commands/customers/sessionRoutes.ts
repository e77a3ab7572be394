// Initiate verification: a verification session (vsess_) with a hosted verificationUrl for the
// customer or one of its associated persons and businesses.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { CUSTOMER_TAGS, customerIdParams } from '../../http/customerParams.js'
import { writeHeaders } from '../../http/headers.js'
import { toSessionResource, verificationSessionResource } from '../../domain/customer/resource.js'
import { emailSchema } from '../../domain/shared/email.js'
import { errorResponses } from '../../http/errorBody.js'
import { principalOf } from '../../http/principal.js'
import { customerCommands, existing } from './customerCommands.js'
import type { CustomerRouteDeps } from './deps.js'
import { newSession } from './newSession.js'

const initiateVerificationBody = z
  .object({
    associatedEntityId: z
      .string()
      .max(64)
      .regex(/^asp_[0-9a-z]{26}$/, 'must be an associated entity id (asp_...)')
      .optional()
      .describe('Verify this associated person or business; omit to verify the customer itself'),
    email: emailSchema.optional().describe("Where the link goes; defaults to the customer's or the entity's email"),
    sendInvite: z.boolean().default(false).describe('Email the link (emits verification.link.sent)'),
  })
  .default({ sendInvite: false })

export const sessionWriteRoutes: FastifyPluginAsyncZod<CustomerRouteDeps> = async (app, deps) => {
  const customers = deps.commands.bind(customerCommands)
  app.post(
    '/customers/:id/verification_sessions',
    {
      schema: {
        operationId: 'createVerificationSession',
        tags: CUSTOMER_TAGS,
        summary: 'Initiate verification: open a verification session with a hosted link',
        description:
          "The session is ACTIVE until expiresAt (then EXPIRED), SUBMITTED with the customer's submission, COMPLETED or FAILED with the " +
          "review outcome. A new session replaces the subject's active one (verification.session.expired, reason SUPERSEDED). Emits " +
          'verification.session.created, and verification.link.sent with sendInvite. 409 unless DRAFT or NEEDS_MORE_INFORMATION; 422 ' +
          'for an unknown associatedEntityId or a missing email with sendInvite.',
        headers: writeHeaders,
        params: customerIdParams,
        body: initiateVerificationBody,
        response: { 201: verificationSessionResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const now = new Date()
      const session = newSession(deps.verification, now)
      const state = existing(
        await customers.handleToState(request, {
          type: 'CreateVerificationSession',
          organizationId: principalOf(request).organizationId,
          customerId: request.params.id,
          now: now.toISOString(),
          session,
          associatedEntityId: request.body.associatedEntityId ?? null,
          email: request.body.email,
          sendInvite: request.body.sendInvite,
        }),
      )
      return reply.code(201).send(
        toSessionResource(
          state.id,
          state.sessions.find((s) => s.id === session.sessionId)!,
          now,
        ),
      )
    },
  )
}
