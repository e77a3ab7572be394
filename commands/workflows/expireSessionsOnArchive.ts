// Archiving a customer expires its open verification sessions: no link of an archived customer
// stays usable. The customer aggregate decides which (ExpireArchivedCustomerSessions); this
// workflow issues that command once per CustomerArchived, with the archive's time as its `now`.
import { customerDecider } from '../../domain/customer/decider.js'
import { CustomerArchived } from '../../domain/customer/events.js'
import { streams } from '../../events/streams.js'
import type { Workflow } from './workflow.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'

export const expireSessionsOnArchive: Workflow = {
  name: 'expire_sessions_on_archive',
  handles: new Set(['CustomerArchived']),
  commandsFor(event) {
    const archived = CustomerArchived.parse(event.data)
    const organizationId = organizationOfEvent(event)
    return [
      {
        step: 'expire-sessions',
        organizationId,
        run: (commands, context) =>
          commands.handle(
            customerDecider,
            streams.customer(archived.customerId),
            { type: 'ExpireArchivedCustomerSessions', organizationId, customerId: archived.customerId, now: archived.archivedAt },
            context,
          ),
      },
    ]
  },
}
