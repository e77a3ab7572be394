// Erasure's I/O half: once CustomerDataErased is on a customer's stream, the customer's data key is
// shredded. The event is appended first, so a crash between the two loses nothing: the workflow's
// checkpoint has not moved, and the shred (idempotent) runs again when the runtime retries.
import { CustomerDataErased } from '../../domain/customer/events.js'
import { shredCustomerData } from '../customers/shredCustomerData.js'
import type { Workflow } from './workflow.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'

export const shredErasedCustomerData: Workflow = {
  name: 'shred_erased_customer_data',
  handles: new Set(['CustomerDataErased']),
  commandsFor(event) {
    const erased = CustomerDataErased.parse(event.data)
    const organizationId = organizationOfEvent(event)
    return [
      {
        step: 'shred-data-key',
        organizationId,
        run: async (_store, _context, { protection }) => {
          await shredCustomerData(protection, erased)
          return { position: undefined }
        },
      },
    ]
  },
}
