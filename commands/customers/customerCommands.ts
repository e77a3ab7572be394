// The customer aggregate's commands bound for the write routes: one stream per customer, a request
// with X-On-Behalf-Of reaches only that customer, and the answer is the customer resource.
import { customerDecider } from '../../domain/customer/decider.js'
import { toCustomerResource } from '../../domain/customer/resource.js'
import type { Customer, CustomerState } from '../../domain/customer/state.js'
import { streams } from '../../events/streams.js'
import { deciderBinding } from '../runtime/commandRuntime.js'
import { assertCustomerInScope } from './scope.js'

/** The customer after a command that keeps it in existence. */
export function existing(state: CustomerState): Customer {
  if (!state.exists) throw new Error('customer state missing after a successful command')
  return state
}

export const customerCommands = deciderBinding({
  decider: customerDecider,
  streamOf: (command) => streams.customer(command.customerId),
  startsStream: (command) => command.type === 'CreateIndividualCustomer' || command.type === 'CreateBusinessCustomer',
  assertInScope: (request, command) => assertCustomerInScope(request, command.customerId),
  toResource: (state) => toCustomerResource(existing(state)),
  waitsForWorkflows: {
    ArchiveCustomer:
      'its open verification sessions expire with it (read right after, they show EXPIRED) and its retention erasure is timed',
    DeleteCustomer: 'the answer says its personal data is erased: the key is shredded before it',
    CreateVerificationSession: 'the answer shows expiresAt: the timer that expires the session is set before it',
  },
})
