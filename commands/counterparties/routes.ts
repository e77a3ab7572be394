// Write routes of counterparties: create (201) and delete (refused while an account uses it).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { assertBeneficiaryAddress, counterpartyResource, createCounterpartyBody } from '../../domain/counterparty/resource.js'
import { newId } from '../../domain/shared/ids.js'
import { deletedResource } from '../../http/deletedResource.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { principalOf } from '../../http/principal.js'
import { assertCustomerInScope } from '../customers/scope.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { counterpartyCommands } from './counterpartyCommands.js'
import { loadCounterpartyCustomer } from './customerFacts.js'
import { claimCounterpartyIfFree } from './upsertCounterparty.js'

export type CounterpartyRouteDeps = {
  commands: CommandRuntime
  counterparties: {
    /** Whether an account in review or active names the counterparty (the accounts read model). */
    inUse: (organizationId: string, counterpartyId: string) => Promise<boolean>
  }
}

export const counterpartyParams = idParam('id', 'cp_', 'Counterparty')
export const COUNTERPARTY_TAGS = ['Counterparties']

export const counterpartyWriteRoutes: FastifyPluginAsyncZod<CounterpartyRouteDeps> = async (app, deps) => {
  const counterparties = deps.commands.bind(counterpartyCommands)

  app.post(
    '/counterparties',
    {
      schema: {
        operationId: 'createCounterparty',
        tags: COUNTERPARTY_TAGS,
        summary: "Create a counterparty: a customer's payee, for its external accounts",
        description:
          'Always creates a new counterparty (an external account created without counterpartyId finds an existing one for the ' +
          'same beneficiary instead). 404: customerId unknown, of another organization, or not the X-On-Behalf-Of customer. 409: ' +
          'the customer is archived (customer_archived) or its data was erased (customer_erased). 422: an address line outside ' +
          'Latin-1 without its transliterated form (address_invalid).',
        headers: writeHeaders,
        body: createCounterpartyBody,
        response: { 201: counterpartyResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const body = request.body
      assertCustomerInScope(request, body.customerId)
      assertBeneficiaryAddress(body.address, 'address')
      const customer = await loadCounterpartyCustomer(deps.commands, body.customerId)
      const counterpartyId = newId('cp')
      const resource = await counterparties.handle(request, {
        type: 'CreateCounterparty',
        organizationId,
        counterpartyId,
        customerId: body.customerId,
        customer: customer.facts,
        name: body.name,
        beneficiaryType: body.beneficiaryType,
        address: body.address,
        isThirdParty: body.isThirdParty,
        metadata: body.metadata,
        now: new Date().toISOString(),
      })
      await claimCounterpartyIfFree(deps.commands, request, { organizationId, counterpartyId, ...body })
      return reply.code(201).send(resource)
    },
  )

  app.delete(
    '/counterparties/:id',
    {
      schema: {
        operationId: 'deleteCounterparty',
        tags: COUNTERPARTY_TAGS,
        summary: 'Delete a counterparty',
        description:
          '409 counterparty_in_use while an account in review or active names it (close the account first). A deleted ' +
          'counterparty answers 404 and is never matched again by an external account created without counterpartyId.',
        headers: writeHeaders,
        params: counterpartyParams,
        response: { 200: deletedResource, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const counterpartyId = request.params.id
      await counterparties.handleToState(request, {
        type: 'DeleteCounterparty',
        organizationId,
        counterpartyId,
        onBehalfOf: request.onBehalfOf,
        inUse: await deps.counterparties.inUse(organizationId, counterpartyId),
        now: new Date().toISOString(),
      })
      return { id: counterpartyId, deleted: true as const }
    },
  )
}
