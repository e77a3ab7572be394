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
  startsStream: (command) => command.type === 'CreateTransfer',
  toResource: (state) => toTransferResource(openedTransfer(state)),
})
