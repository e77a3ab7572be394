// POST /v1/tos/generate: a terms agreement (tos_) whose id the customer's verification names as
// signedAgreementId once the customer has accepted it at `url`.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { writeHeaders } from '../../http/headers.js'
import { notFound } from '../../domain/errors.js'
import { errorResponses } from '../../http/errorBody.js'
import { newId } from '../../domain/shared/ids.js'
import { TERMS_VERSION, termsDecider } from '../../domain/terms/decider.js'
import { generateTermsBody, termsAgreementResource, toTermsResource } from '../../domain/terms/resource.js'
import { streams } from '../../events/streams.js'
import { principalOf } from '../../http/principal.js'
import { loadCustomer } from '../customers/facts.js'
import { scopedCustomerId } from '../customers/scope.js'
import { type CommandRuntime, deciderBinding } from '../runtime/commandRuntime.js'

export type TermsRouteDeps = {
  commands: CommandRuntime
  /** The hosted pages' base (the verification URL base) is where agreements are accepted. */
  verification: { urlBase: string }
}

export const termsCommands = deciderBinding({
  decider: termsDecider,
  streamOf: (command) => streams.termsAgreement(command.agreementId),
  // Every terms command generates a new agreement under a fresh id.
  startsStream: () => true,
  toResource: (state) => {
    if (state.status !== 'generated') throw new Error('agreement state missing after generation')
    return toTermsResource(state)
  },
})

export const termsWriteRoutes: FastifyPluginAsyncZod<TermsRouteDeps> = async (app, deps) => {
  const agreements = deps.commands.bind(termsCommands)
  app.post(
    '/tos/generate',
    {
      schema: {
        operationId: 'generateTermsAgreement',
        tags: ['Terms'],
        summary: 'Generate a terms agreement',
        description:
          "Returns an agreement id (tos_) to pass as signedAgreementId in the customer's verification once accepted; that records a " +
          'terms acceptance. 404 for an unknown customerId.',
        headers: writeHeaders,
        body: generateTermsBody,
        response: { 201: termsAgreementResource, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const customerId = scopedCustomerId(request, request.body.customerId)
      if (customerId !== undefined) {
        const customer = await loadCustomer(deps.commands, customerId)
        if (!customer.exists || customer.organizationId !== organizationId) throw notFound('Customer', customerId)
      }
      const agreementId = newId('tos')
      const agreement = await agreements.handle(request, {
        type: 'GenerateTermsAgreement',
        agreementId,
        organizationId,
        customerId: customerId ?? null,
        version: TERMS_VERSION,
        url: `${deps.verification.urlBase.replace(/\/+$/, '')}/terms/${agreementId}`,
        createdAt: new Date().toISOString(),
      })
      return reply.code(201).send(agreement)
    },
  )
}
