// One customer command from an HTTP request: decide and append on the customer's stream, then wait
// for the read models (read-your-writes).
import type { FastifyRequest } from 'fastify'
import type { CustomerCommand } from '../../domain/customer/commands.js'
import { customerDecider } from '../../domain/customer/decider.js'
import type { Customer, CustomerState } from '../../domain/customer/state.js'
import { streams } from '../../events/streams.js'
import { handleCommand } from '../runtime/handleCommand.js'
import { contextFrom } from '../runtime/requestContext.js'
import type { CustomerRouteDeps } from './deps.js'
import { assertCustomerInScope } from './scope.js'

export async function runCustomerCommand(deps: CustomerRouteDeps, request: FastifyRequest, command: CustomerCommand): Promise<CustomerState> {
  assertCustomerInScope(request, command.customerId)
  const isCreate = command.type === 'CreateIndividualCustomer' || command.type === 'CreateBusinessCustomer'
  const result = await handleCommand(deps.store, customerDecider, streams.customer(command.customerId), command, contextFrom(request), { newStream: isCreate })
  await deps.waitForProjections(result.position)
  return result.state
}

/** The customer after a command that keeps it in existence. */
export function existing(state: CustomerState): Customer {
  if (!state.exists) throw new Error('customer state missing after a successful command')
  return state
}
