// How transfer commands are handled (the command runtime's binding): one stream per transfer; a
// transfer created under a fresh id starts its stream without a read; the answer is the resource.
import { type OpenTransferState, type TransferState, transferDecider } from '../../domain/transfer/decider.js'
import { toTransferResource } from '../../domain/transfer/resource.js'
import { streams } from '../../events/streams.js'
import { deciderBinding } from '../runtime/commandRuntime.js'

export function openedTransfer(state: TransferState): OpenTransferState {
  if (state.status === 'none') throw new Error('transfer state missing after a successful command')
  return state
}

export const transferCommands = deciderBinding({
  decider: transferDecider,
  streamOf: (command) => streams.transfer(command.transferId),
  startsStream: (command) => command.type === 'CreateTransfer' || command.type === 'RequestTransfer',
  toResource: (state) => toTransferResource(openedTransfer(state)),
  waitsForWorkflows: {
    CancelTransfer: 'the answer says CANCELLED: a hold it had on a source balance is released by then',
    InitiateRefund: 'the answer shows the refund started: the refund transfer it sets off exists by then',
    FundTransfer: 'sandbox: the answer follows the money as a rail would move it (legs started, holds settled)',
    AdvanceTransfer: 'sandbox: the answer follows the money as a rail would move it (holds settled, credits made, returns held)',
    ReverseTransfer: 'sandbox: the answer follows the money back (the credit reclaimed, the source refunded or held in review)',
  },
})
