// How account commands are handled (the command runtime's binding): one stream per account; an
// account opened under a fresh id starts its stream without a read.
import { type AccountState, type OpenAccountState, accountDecider } from '../../domain/account/decider.js'
import { toAccountResource } from '../../domain/account/resource.js'
import { streams } from '../../events/streams.js'
import { deciderBinding } from '../runtime/commandRuntime.js'

export function openedAccount(state: AccountState): OpenAccountState {
  if (state.status === 'none') throw new Error('account state missing after a successful command')
  return state
}

export const accountCommands = deciderBinding({
  decider: accountDecider,
  streamOf: (command) => streams.account(command.accountId),
  startsStream: (command) => command.type === 'OpenAccount',
  toResource: (state) => toAccountResource(openedAccount(state)),
})
