// Document aggregate: uploaded once, never changed or deleted, so a document that verification
// data references can never disappear.
import type { Decider } from '../decider.js'
import { DomainError } from '../errors.js'
import type { DocumentEvent } from './events.js'

export type DocumentState = { status: 'none' } | ({ status: 'uploaded' } & DocumentEvent['data'])

export type DocumentCommand = { type: 'UploadDocument' } & DocumentEvent['data']

export const documentDecider: Decider<DocumentState, DocumentCommand, DocumentEvent> = {
  initialState: () => ({ status: 'none' }),
  decide(command, state) {
    if (state.status !== 'none')
      throw new DomainError('conflict', 'resource_already_exists', `Document ${command.documentId} already exists`)
    const { type: _t, ...data } = command
    return [{ type: 'DocumentUploaded', data }]
  },
  evolve(_state, event) {
    return { status: 'uploaded', ...event.data }
  },
}
