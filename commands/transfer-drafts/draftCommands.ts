// How transfer draft commands are handled: one stream per draft, started by its registration under
// a fresh tdraft_ id.
import { type TransferDraftCommand, transferDraftDecider } from '../../domain/transfer-draft/decider.js'
import { streams } from '../../events/streams.js'
import { deciderBinding } from '../runtime/commandRuntime.js'

export const transferDraftStreamOf = (draftId: string): string => streams.transferDraft(draftId)

export const transferDraftCommands = {
  decider: transferDraftDecider,
  streamOf: (command: TransferDraftCommand) => transferDraftStreamOf(command.draftId),
}

/** The binding routes handle draft commands through, answering with the state. */
export const transferDraftBinding = deciderBinding({
  ...transferDraftCommands,
  startsStream: (command) => command.type === 'RegisterDraft',
  toResource: (state) => state,
})
