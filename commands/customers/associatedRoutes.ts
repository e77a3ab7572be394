// Associated persons and businesses of a business customer: create (optionally with a verification
// link) and change. Both get asp_ ids and form one ownership tree.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CUSTOMER_TAGS, associatedEntityParams, customerIdNamedParams } from '../../http/customerParams.js'
import { writeHeaders } from '../../http/headers.js'
import type { CustomerCommand } from '../../domain/customer/commands.js'
import { associatedEntityResource, toAssociatedResource } from '../../domain/customer/resource.js'
import {
  type AssociatedEntityData,
  createAssociatedBusinessBody,
  createAssociatedPersonBody,
  updateAssociatedBusinessBody,
  updateAssociatedPersonBody,
} from '../../domain/customer/schemas/associatedEntity.js'
import { documentRefs } from '../../domain/customer/validation/documentRefs.js'
import { errorResponses } from '../../http/errorBody.js'
import { newId } from '../../domain/shared/ids.js'
import { principalOf } from '../../http/principal.js'
import { customerCommands, existing } from './customerCommands.js'
import type { CustomerRouteDeps } from './deps.js'
import { loadDocumentFacts } from './facts.js'
import { newSession } from './newSession.js'

const RULES = [
  'Only for BUSINESS customers in DRAFT or NEEDS_MORE_INFORMATION (409 otherwise).',
  '422 with details naming the field: email when generateVerificationLink or sendInvite; hasOwnership true when ownershipPercentage is ' +
    'above 0;',
  'ownership_cycle, ownership_over_100 (owners of one parent add up to more than 100), ownership_parent_missing, ' +
    'ownership_parent_not_business, ownership_too_deep, ownership_too_large;',
  "a person's data follows the individual verification rules.",
].join(' ')

export const associatedWriteRoutes: FastifyPluginAsyncZod<CustomerRouteDeps> = async (app, deps) => {
  const customers = deps.commands.bind(customerCommands)
  type Request = Parameters<typeof customers.handle>[0]
  async function add(
    request: Request,
    customerId: string,
    entityType: 'INDIVIDUAL' | 'BUSINESS',
    body: Extract<CustomerCommand, { type: 'AddAssociatedEntity' }>['body'],
  ) {
    const now = new Date()
    const entityId = newId('asp')
    const state = existing(
      await customers.handleToState(request, {
        type: 'AddAssociatedEntity',
        organizationId: principalOf(request).organizationId,
        customerId,
        now: now.toISOString(),
        entityId,
        entityType,
        body,
        documents: await loadDocumentFacts(
          deps.commands,
          documentRefs(body).map((r) => r.documentId),
        ),
        session: newSession(deps.verification, now),
      }),
    )
    return toAssociatedResource(
      state,
      state.associated.find((e) => e.id === entityId)!,
      now,
    )
  }

  async function update(
    request: Request,
    customerId: string,
    entityId: string,
    entityType: 'INDIVIDUAL' | 'BUSINESS',
    changes: AssociatedEntityData,
  ) {
    const now = new Date()
    const state = existing(
      await customers.handleToState(request, {
        type: 'UpdateAssociatedEntity',
        organizationId: principalOf(request).organizationId,
        customerId,
        now: now.toISOString(),
        entityId,
        entityType,
        changes,
        documents: await loadDocumentFacts(
          deps.commands,
          documentRefs(changes).map((r) => r.documentId),
        ),
      }),
    )
    return toAssociatedResource(
      state,
      state.associated.find((e) => e.id === entityId)!,
      now,
    )
  }

  app.post(
    '/customers/:customerId/associated_businesses',
    {
      schema: {
        operationId: 'createAssociatedBusiness',
        tags: CUSTOMER_TAGS,
        summary: 'Create an associated business (intermediate owner; children set parentEntityId to its id)',
        description: RULES,
        headers: writeHeaders,
        params: customerIdNamedParams,
        body: createAssociatedBusinessBody,
        response: { 201: associatedEntityResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await add(request, request.params.customerId, 'BUSINESS', request.body)),
  )

  app.post(
    '/customers/:customerId/associated_persons',
    {
      schema: {
        operationId: 'createAssociatedPerson',
        tags: CUSTOMER_TAGS,
        summary: 'Create an associated person (owner, signer, director or control person)',
        description: RULES,
        headers: writeHeaders,
        params: customerIdNamedParams,
        body: createAssociatedPersonBody,
        response: { 201: associatedEntityResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await add(request, request.params.customerId, 'INDIVIDUAL', request.body)),
  )

  app.patch(
    '/customers/:customerId/associated_businesses/:entityId',
    {
      schema: {
        operationId: 'updateAssociatedBusiness',
        tags: CUSTOMER_TAGS,
        summary: 'Change an associated business (omitted fields stay)',
        description: RULES,
        headers: writeHeaders,
        params: associatedEntityParams,
        body: updateAssociatedBusinessBody,
        response: { 200: associatedEntityResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => update(request, request.params.customerId, request.params.entityId, 'BUSINESS', request.body),
  )

  app.patch(
    '/customers/:customerId/associated_persons/:entityId',
    {
      schema: {
        operationId: 'updateAssociatedPerson',
        tags: CUSTOMER_TAGS,
        summary: 'Change an associated person (omitted fields stay)',
        description: RULES,
        headers: writeHeaders,
        params: associatedEntityParams,
        body: updateAssociatedPersonBody,
        response: { 200: associatedEntityResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => update(request, request.params.customerId, request.params.entityId, 'INDIVIDUAL', request.body),
  )
}
