// A deposit recorded at a fixed route is swept (commands/fixed-routes/sweepDeposit.ts): the simulate
// request does it at once; this workflow does it again after the deposit is stored, so a crash between
// recording the deposit and its sweep loses nothing (every step is a no-op the second time).
import { accountDecider } from '../../domain/account/decider.js'
import { FixedRouteDepositReceived } from '../../domain/account/events.js'
import { asFixedRoute } from '../../domain/fixed-route/resource.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'
import { streams } from '../../events/streams.js'
import { sweepDeposit } from '../fixed-routes/sweepDeposit.js'
import type { Workflow } from './workflow.js'

export const sweepFixedRouteDeposits: Workflow = {
  name: 'sweep_fixed_route_deposits',
  handles: new Set(['FixedRouteDepositReceived']),
  commandsFor(event) {
    const { accountId: _a, organizationId: _o, at: _at, ...deposit } = FixedRouteDepositReceived.parse(event.data)
    return [
      {
        step: 'sweep',
        organizationId: organizationOfEvent(event),
        async run(commands, context, services) {
          const { state } = await commands.load(accountDecider, streams.account(String(event.data.accountId)))
          const route = state.status === 'none' ? undefined : asFixedRoute(state)
          if (!route) return { position: undefined }
          const { position } = await sweepDeposit(commands, { commands, environment: services.environment }, route, deposit, context)
          return { position }
        },
      },
    ]
  },
}
