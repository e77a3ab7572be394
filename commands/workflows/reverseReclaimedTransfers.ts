// A transfer's balance credit taken back (commands/transfers/reclaimDelivery.ts) is followed by the
// transfer's reversal, which credits its source from transit. The reverse route does both; this
// workflow finishes the reversal when a crash came between them, so money never stays in transit
// for a transfer that is still COMPLETED. Same command, so the second one decides nothing.
import { TRANSFER_CREDIT_PREFIX } from '../../domain/account/creditCause.js'
import { CreditReversed } from '../../domain/balance-account/fundsEvents.js'
import { transferDecider } from '../../domain/transfer/decider.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'
import { streams } from '../../events/streams.js'
import type { Workflow } from './workflow.js'

export const reverseReclaimedTransfers: Workflow = {
  name: 'reverse_reclaimed_transfers',
  handles: new Set(['CreditReversed']),
  commandsFor(event) {
    const { cause } = CreditReversed.parse(event.data)
    if (!cause.startsWith(TRANSFER_CREDIT_PREFIX)) return []
    const transferId = cause.slice(TRANSFER_CREDIT_PREFIX.length)
    const organizationId = organizationOfEvent(event)
    return [
      {
        step: 'reverse',
        organizationId,
        async run(commands, context) {
          const stream = streams.transfer(transferId)
          const { state } = await commands.load(transferDecider, stream)
          if (state.status !== 'COMPLETED') return { position: undefined }
          return commands.handle(
            transferDecider,
            stream,
            {
              type: 'ReverseTransfer',
              organizationId,
              transferId,
              now: new Date().toISOString(),
              code: 'reversal',
              reason: 'Reversed: its credit was taken back from the destination',
              reclaimed: true,
            },
            context,
          )
        },
      },
    ]
  },
}
