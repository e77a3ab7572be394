// The Customer aggregate: individuals and businesses from creation through verification, review,
// archive or deletion; their associated persons and businesses; their verification sessions.
import type { Decider } from '../decider.js'
import type { CustomerCommand } from './commands.js'
import { decideAddAssociated, decideUpdateAssociated } from './decideAssociated.js'
import { decideErase } from './decideErasure.js'
import { decideArchive, decideCreate, decideDelete, decideReview, decideSubmit } from './decideLifecycle.js'
import { decideCreateSession, decideExpireArchivedSessions, decideExpireSession } from './decideSessions.js'
import { decideSaveBusiness, decideSaveIndividual } from './decideVerification.js'
import type { CustomerEvent } from './events.js'
import { requireCustomer, requireNotErased } from './guards.js'
import { type CustomerState, evolveCustomer, initialCustomerState } from './state.js'

/** The commands refused once the customer's personal data is erased. */
const WRITES_PERSONAL_DATA: ReadonlySet<CustomerCommand['type']> = new Set([
  'SaveIndividualVerification',
  'SaveBusinessVerification',
  'SubmitCustomer',
  'SimulateReview',
  'AddAssociatedEntity',
  'UpdateAssociatedEntity',
  'CreateVerificationSession',
])

export const customerDecider: Decider<CustomerState, CustomerCommand, CustomerEvent> = {
  initialState: initialCustomerState,
  evolve: evolveCustomer,
  decide(command, state) {
    if (command.type === 'CreateIndividualCustomer' || command.type === 'CreateBusinessCustomer') return decideCreate(state, command)
    // The expiry timer must never fail on a customer deleted since it looked.
    if ((command.type === 'ExpireVerificationSession' || command.type === 'ExpireArchivedCustomerSessions') && !state.exists) return []
    // Erasure may follow a deletion: the only command a deleted customer still takes.
    if (command.type === 'EraseCustomerData') return decideErase(state, command)
    const c = requireCustomer(state, command)
    // Once erased, nothing personal is written for it (and its data key is gone): only the
    // lifecycle's end (archive, delete) and session expiry still run.
    if (WRITES_PERSONAL_DATA.has(command.type)) requireNotErased(c)
    switch (command.type) {
      case 'SaveIndividualVerification':
        return decideSaveIndividual(c, command)
      case 'SaveBusinessVerification':
        return decideSaveBusiness(c, command)
      case 'SubmitCustomer':
        return decideSubmit(c, command)
      case 'SimulateReview':
        return decideReview(c, command)
      case 'ArchiveCustomer':
        return decideArchive(c, command)
      case 'DeleteCustomer':
        return decideDelete(c, command)
      case 'AddAssociatedEntity':
        return decideAddAssociated(c, command)
      case 'UpdateAssociatedEntity':
        return decideUpdateAssociated(c, command)
      case 'CreateVerificationSession':
        return decideCreateSession(c, command)
      case 'ExpireVerificationSession':
        return decideExpireSession(c, command)
      case 'ExpireArchivedCustomerSessions':
        return decideExpireArchivedSessions(c, command)
    }
  },
}
