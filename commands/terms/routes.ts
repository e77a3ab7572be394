// POST /v1/tos/generate: a terms agreement (tos_) whose id the customer's verification names as
// signedAgreementId once the customer has accepted it at `url`.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { writeHeaders } from '../../domain/customer/apiParams.js'
import { errorResponses, notFound } from '../../domain/errors.js'
import { newId } from '../../domain/shared/ids.js'
import { TERMS_VERSION, termsDecider } from '../../domain/terms/decider.js'
import { generateTermsBody, termsAgreementResource, toTermsResource } from '../../domain/terms/resource.js'
import type { EventStore, Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { loadCustomer } from '../customers/facts.js'
import { scopedCustomerId } from '../customers/scope.js'
import { handleCommand } from '../runtime/handleCommand.js'
import { contextFrom } from '../runtime/requestContext.js'

export type TermsRouteDeps = {
  store: EventStore
  waitForProjections: (position: Position | undefined) => Promise<boolean>
  /** Base of the hosted pages (the verification URL base). */
  urlBase: string
}

export const termsWriteRoutes: FastifyPluginAsyncZod<TermsRouteDeps> = async (app, deps) => {
  app.post('/tos/generate', {
    schema: {
      tags: ['Terms'],
      summary: 'Generate a terms agreement',
      description: 'Returns an agreement id (tos_) to pass as signedAgreementId in the customer\'s verification once accepted; that records a terms acceptance. 404 for an unknown customerId.',
      headers: writeHeaders,
      body: generateTermsBody,
      response: { 201: termsAgreementResource, ...errorResponses(404, 409) },
    },
  }, async (request, reply) => {
    const organizationId = request.principal!.organizationId
    const customerId = scopedCustomerId(request, request.body.customerId)
    if (customerId !== undefined) {
      const customer = await loadCustomer(deps.store, customerId)
      if (!customer.exists || customer.organizationId !== organizationId) throw notFound('Customer', customerId)
    }
    const agreementId = newId('tos')
    const result = await handleCommand(deps.store, termsDecider, streams.termsAgreement(agreementId), {
      type: 'GenerateTermsAgreement', agreementId, organizationId, customerId: customerId ?? null, version: TERMS_VERSION,
      url: `${deps.urlBase.replace(/\/+$/, '')}/terms/${agreementId}`, createdAt: new Date().toISOString(),
    }, contextFrom(request), { newStream: true })
    await deps.waitForProjections(result.position)
    if (result.state.status !== 'generated') throw new Error('agreement state missing after generation')
    return reply.code(201).send(toTermsResource(result.state))
  })
}
