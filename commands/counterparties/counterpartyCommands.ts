// How counterparty commands are handled: one stream per counterparty; creations start theirs.
import { counterpartyDecider } from '../../domain/counterparty/decider.js'
import { toCounterpartyResource } from '../../domain/counterparty/resource.js'
import { streams } from '../../events/streams.js'
import { deciderBinding } from '../runtime/commandRuntime.js'

export const counterpartyCommands = deciderBinding({
  decider: counterpartyDecider,
  streamOf: (command) => streams.counterparty(command.counterpartyId),
  startsStream: (command) => command.type === 'CreateCounterparty',
  toResource: (state) => {
    if (state.status === 'none') throw new Error('counterparty state missing after a successful command')
    return toCounterpartyResource(state)
  },
})
