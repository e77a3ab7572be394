// Fixed routes for the read tests, made the way the service makes them: an OpenAccount command of
// a route's source account (a VIRTUAL_BANK or DEPOSIT_WALLET with its route and coordinates) on the
// account stream, and SetFixedRouteEnabled to disable one; each waits for the read models.
import { handleCommand } from '../../commands/runtime/handleCommand.js'
import { ACCOUNT_KINDS } from '../../domain/account/accountKinds.js'
import { accountDecider } from '../../domain/account/decider.js'
import { newId } from '../../domain/shared/ids.js'
import { streams } from '../../events/streams.js'
import type { TestApp } from '../harness/testApp.js'
import { type RouteKind, routeAccount } from './readsFixtures.js'

const origin = (organizationId: string) => ({ organizationId, requestId: 'req_test', actor: 'test' })

async function projected(h: TestApp, position: Parameters<TestApp['runtime']['runner']['waitFor']>[0], what: string) {
  if (!(await h.runtime.runner.waitFor(position, 10_000))) throw new Error(`${what} not projected in time`)
}

/** Opens a route of `kind` for `customerId` sweeping to `sweepTargetAccountId`; its id. */
export async function openRoute(
  h: TestApp,
  organizationId: string,
  kind: RouteKind,
  customerId: string,
  sweepTargetAccountId: string,
): Promise<string> {
  const account = routeAccount(kind, customerId, sweepTargetAccountId)
  const accountId = newId(ACCOUNT_KINDS[account.kind].prefix)
  const result = await handleCommand(
    h.runtime.store,
    accountDecider,
    streams.account(accountId),
    { type: 'OpenAccount', organizationId, accountId, now: new Date().toISOString(), status: 'ACTIVE', account },
    origin(organizationId),
    { newStream: true },
  )
  await projected(h, result.position, `route ${accountId}`)
  return accountId
}

export async function setRouteEnabled(h: TestApp, organizationId: string, accountId: string, enabled: boolean): Promise<void> {
  const result = await handleCommand(
    h.runtime.store,
    accountDecider,
    streams.account(accountId),
    { type: 'SetFixedRouteEnabled', organizationId, accountId, now: new Date().toISOString(), enabled },
    origin(organizationId),
  )
  await projected(h, result.position, `route ${accountId} ${enabled ? 'enabled' : 'disabled'}`)
}
