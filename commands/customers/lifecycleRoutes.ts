// Write routes of the customer lifecycle: create an individual or a business, submit, archive,
// delete.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { CUSTOMER_TAGS, customerIdParams } from '../../http/customerParams.js'
import { writeHeaders } from '../../http/headers.js'
import { customerResource, toVerificationResult, verificationResult } from '../../domain/customer/resource.js'
import { createBusinessCustomerBody, createIndividualCustomerBody } from '../../domain/customer/schemas/create.js'
import { DomainError } from '../../domain/errors.js'
import { errorResponses } from '../../http/errorBody.js'
import { newId } from '../../domain/shared/ids.js'
import { principalOf } from '../../http/principal.js'
import { customerCommands, existing } from './customerCommands.js'
import type { CustomerRouteDeps } from './deps.js'

const deletedResource = z.object({ id: z.string(), deleted: z.literal(true) })

export const customerLifecycleRoutes: FastifyPluginAsyncZod<CustomerRouteDeps> = async (app, deps) => {
  const customers = deps.commands.bind(customerCommands)
  const scoped = (request: Parameters<typeof principalOf>[0], customerId: string) => ({
    organizationId: principalOf(request).organizationId,
    customerId,
    now: new Date().toISOString(),
  })
  /** A session bound to one customer acts for it; creating customers is the platform's own business. */
  const refuseOnBehalfOf = (request: { onBehalfOf?: string | undefined }) => {
    if (request.onBehalfOf !== undefined)
      throw new DomainError('forbidden', 'on_behalf_of_not_allowed', 'Creating customers is a platform operation: omit X-On-Behalf-Of')
  }

  app.post(
    '/customers/individuals',
    {
      schema: {
        operationId: 'createIndividualCustomer',
        tags: CUSTOMER_TAGS,
        summary: 'Create an individual customer (status DRAFT)',
        description: 'Verification data follows with POST /v1/customers/{id}/verification. Emits customer.created.',
        headers: writeHeaders,
        body: createIndividualCustomerBody,
        response: { 201: customerResource, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      refuseOnBehalfOf(request)
      return reply
        .code(201)
        .send(await customers.handle(request, { type: 'CreateIndividualCustomer', ...scoped(request, newId('cus')), body: request.body }))
    },
  )

  app.post(
    '/customers/businesses',
    {
      schema: {
        operationId: 'createBusinessCustomer',
        tags: CUSTOMER_TAGS,
        summary: 'Create a business customer (status DRAFT)',
        description:
          'Business data follows with POST /v1/customers/{id}/business_verification, owners with associated_persons and ' +
          'associated_businesses. Emits customer.created.',
        headers: writeHeaders,
        body: createBusinessCustomerBody,
        response: { 201: customerResource, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      refuseOnBehalfOf(request)
      return reply
        .code(201)
        .send(await customers.handle(request, { type: 'CreateBusinessCustomer', ...scoped(request, newId('cus')), body: request.body }))
    },
  )

  app.post(
    '/customers/:id/submit',
    {
      schema: {
        operationId: 'submitCustomer',
        tags: CUSTOMER_TAGS,
        summary: 'Submit a customer for review',
        description:
          'With nothing missing: UNDER_REVIEW and customer.status_changed. Otherwise the customer stays as it is and missingRequirements ' +
          'lists what is needed. 409 unless DRAFT or NEEDS_MORE_INFORMATION.',
        headers: writeHeaders,
        params: customerIdParams,
        response: { 200: verificationResult, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const state = await customers.handleToState(request, { type: 'SubmitCustomer', ...scoped(request, request.params.id) })
      return toVerificationResult(existing(state), new Date())
    },
  )

  app.post(
    '/customers/:id/archive',
    {
      schema: {
        operationId: 'archiveCustomer',
        tags: CUSTOMER_TAGS,
        summary: 'Archive a customer (terminal; its active verification links expire)',
        description: 'Emits customer.status_changed. 409 customer_archived when already archived.',
        headers: writeHeaders,
        params: customerIdParams,
        response: { 200: customerResource, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      return customers.handle(request, { type: 'ArchiveCustomer', ...scoped(request, request.params.id) })
    },
  )

  app.delete(
    '/customers/:id',
    {
      schema: {
        operationId: 'deleteCustomer',
        tags: CUSTOMER_TAGS,
        summary: 'Delete a customer that was never submitted for review',
        description:
          'Emits customer.deleted; afterwards every operation on it answers 404, and its personal data is erased (crypto-shredded). ' +
          'A customer once submitted keeps its record for ' +
          'compliance: 409 customer_not_deletable, archive it instead.',
        headers: writeHeaders,
        params: customerIdParams,
        response: { 200: deletedResource, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const actor = principalOf(request).keyId
      await customers.handleToState(request, { type: 'DeleteCustomer', ...scoped(request, request.params.id), actor })
      return { id: request.params.id, deleted: true as const }
    },
  )
}
