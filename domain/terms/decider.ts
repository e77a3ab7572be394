// TermsAgreement aggregate: a generated agreement (tos_) that a customer's verification names as
// signedAgreementId; the acceptance itself is recorded on the customer.
import type { Decider } from '../decider.js'
import { DomainError } from '../errors.js'
import type { TermsEvent } from './events.js'

/** Version of the service terms an agreement refers to. */
export const TERMS_VERSION = '2025-01-01'

export type TermsState = { status: 'none' } | ({ status: 'generated' } & TermsEvent['data'])
export type TermsCommand = { type: 'GenerateTermsAgreement' } & TermsEvent['data']

export const termsDecider: Decider<TermsState, TermsCommand, TermsEvent> = {
  initialState: () => ({ status: 'none' }),
  decide(command, state) {
    if (state.status !== 'none')
      throw new DomainError('conflict', 'resource_already_exists', `Terms agreement ${command.agreementId} already exists`)
    const { type: _t, ...data } = command
    return [{ type: 'TermsAgreementGenerated', data }]
  },
  evolve(_state, event) {
    return { status: 'generated', ...event.data }
  },
}
