// The fixed routes projector, given account events then rows: a row per route (virtual bank
// accounts and deposit wallets; no other account), its filter columns and the resource without
// the expanded target, the deposit coordinates sealed at rest (the spec fails on any in clear, then
// shows them opened); the later events patch the row to exactly what the decider's state gives.
import t from 'tap'
import { sql } from 'kysely'
import { type AccountState, accountDecider } from '../../domain/account/decider.js'
import type { AccountEvent } from '../../domain/account/events.js'
import { asFixedRoute } from '../../domain/fixed-route/resource.js'
import { fixedRoutesProjector, storedFixedRoute } from '../../projections/fixedRoutes.js'
import { projectionDatabase, projectorSpec } from '../domain/projectorSpec.js'
import { BENEFICIARY, BENEFICIARY_ADDRESS, EUR_IBAN, USD_ACCOUNT_NUMBER, WALLET_ADDRESS, routeOpened } from './readsFixtures.js'

const db = await projectionDatabase(t)
const routes = projectorSpec(db, fixedRoutesProjector)
const at = '2026-11-24T10:00:00.000Z'
const later = '2026-11-24T10:05:00.000Z'
const ids = (accountId: string, customerId = 'cus_a') => ({
  accountId,
  organizationId: 'org_a',
  customerId,
  sweepTargetAccountId: 'inw_target',
})
const ref = (accountId: string, when = later) => ({ accountId, organizationId: 'org_a', at: when })

const balanceAccount: AccountEvent = {
  type: 'AccountOpened',
  data: {
    accountId: 'acc_balance',
    organizationId: 'org_a',
    customerId: 'cus_a',
    kind: 'USD_BALANCE',
    type: 'INFINITE_BANK',
    status: 'ACTIVE',
    currencyCodes: ['USD'],
    paymentRails: ['ACH'],
    holdsBalance: true,
    balanceSourceEligible: true,
    provider: 'INFINITE',
    counterpartyId: null,
    metadata: {},
    details: { kind: 'USD_BALANCE' },
    at,
  },
}

t.test('opened: a row per route with its columns and resource; other accounts get none', async (t) => {
  await routes
    .given([
      routeOpened('USD_BANK', ids('vba_1'), at),
      balanceAccount,
      routeOpened('EUR_BANK', ids('vba_2', 'cus_b'), at),
      routeOpened('WALLET', ids('inw_3'), later),
      { type: 'AccountMetadataUpdated', data: { ...ref('acc_balance'), metadata: { nickname: 'not a route' } } },
    ])
    .thenRows(t, {
      fixed_routes: [
        {
          id: 'inw_3',
          organization_id: 'org_a',
          customer_id: 'cus_a',
          sweep_target_account_id: 'inw_target',
          status: 'ACTIVE',
          enabled: true,
          created_at: later,
          updated_at: later,
          resource: {
            id: 'inw_3',
            type: 'CRYPTO_TO_FIAT',
            sourceAccount: { type: 'VIRTUAL_WALLET', depositInstructions: null, walletAddress: WALLET_ADDRESS, chains: ['ETHEREUM'] },
          },
        },
        {
          id: 'vba_1',
          organization_id: 'org_a',
          customer_id: 'cus_a',
          sweep_target_account_id: 'inw_target',
          status: 'ACTIVE',
          enabled: true,
          created_at: at,
          updated_at: at,
          resource: {
            id: 'vba_1',
            customerId: 'cus_a',
            status: 'ACTIVE',
            enabled: true,
            sweepTargetAccountId: 'inw_target',
            depositMatching: 'DEDICATED',
            sourceAccount: {
              id: 'vba_1',
              type: 'VIRTUAL_BANK',
              sourceRail: 'ACH',
              sourceRails: ['ACH', 'WIRE'],
              depositInstructions: {
                accountNumber: USD_ACCOUNT_NUMBER,
                iban: null,
                beneficiaryName: BENEFICIARY,
                beneficiaryAddress: BENEFICIARY_ADDRESS,
              },
            },
            minimumAmount: { currency: 'USD', value: '1000', displayValue: '10.00' },
            createdAt: at,
            updatedAt: at,
          },
        },
        {
          id: 'vba_2',
          customer_id: 'cus_b',
          resource: { sourceAccount: { sourceRail: 'SEPA', depositInstructions: { accountNumber: null, iban: EUR_IBAN } } },
        },
      ],
    })
  const stored = await db.selectFrom('fixed_routes').select('resource').where('id', '=', 'vba_1').executeTakeFirstOrThrow()
  t.notOk('sweepTargetAccount' in stored.resource, 'the expanded target is not stored (reads join it)')
})

t.test('sealed at rest: the row text holds no account number, IBAN or beneficiary', async (t) => {
  await routes
    .given([routeOpened('USD_BANK', ids('vba_1'), at), routeOpened('EUR_BANK', ids('vba_2'), at)])
    .thenRows(t, { fixed_routes: [{ id: 'vba_1' }, { id: 'vba_2' }] })
  const { rows } = await sql<{ text: string }>`SELECT fixed_routes::text AS text FROM fixed_routes`.execute(db)
  t.equal(rows.length, 2)
  for (const { text } of rows)
    for (const secret of [USD_ACCOUNT_NUMBER, EUR_IBAN, BENEFICIARY, BENEFICIARY_ADDRESS])
      t.notOk(text.includes(secret), `the raw row does not hold ${secret.slice(0, 4)}…`)
})

const lifecycle: AccountEvent[] = [
  routeOpened('USD_BANK', ids('vba_1'), at),
  { type: 'FixedRouteDisabled', data: ref('vba_1', '2026-11-24T10:01:00.000Z') },
  { type: 'AccountMetadataUpdated', data: { ...ref('vba_1', '2026-11-24T10:02:00.000Z'), metadata: { nickname: 'payroll' } } },
  { type: 'FixedRouteEnabled', data: ref('vba_1', '2026-11-24T10:03:00.000Z') },
  { type: 'FixedRouteDisabled', data: ref('vba_1', '2026-11-24T10:04:00.000Z') },
  { type: 'AccountClosed', data: { ...ref('vba_1', '2026-11-24T10:06:00.000Z'), reason: 'CLOSED_BY_CALLER' } },
]

/** The stored resource the decider's own state gives after `events` (what a command answers, without the target). */
function expectedAfter(events: AccountEvent[]) {
  const state = events.reduce<AccountState>((s, e) => accountDecider.evolve(s, e), accountDecider.initialState())
  if (state.status === 'none') throw new Error('no state')
  return storedFixedRoute(asFixedRoute(state)!)
}

t.test('later events patch status, enabled, metadata and updatedAt to what the state gives, at every step', async (t) => {
  const expected = [
    { status: 'ACTIVE', enabled: true },
    { status: 'DISABLED', enabled: false },
    { status: 'DISABLED', enabled: false },
    { status: 'ACTIVE', enabled: true },
    { status: 'DISABLED', enabled: false },
    { status: 'CLOSED', enabled: false },
  ]
  for (let n = 1; n <= lifecycle.length; n++) {
    const events = lifecycle.slice(0, n)
    const resource = expectedAfter(events)
    t.match(resource, expected[n - 1], `after ${n} event(s): the state's route is ${expected[n - 1]!.status}`)
    await routes.given(events).thenRows(t, {
      fixed_routes: [{ id: 'vba_1', status: resource.status, enabled: resource.enabled, updated_at: resource.updatedAt, resource }],
    })
    const stored = await db.selectFrom('fixed_routes').select('resource').executeTakeFirstOrThrow()
    t.same(Object.keys(stored.resource).sort(), Object.keys(resource).sort(), 'no field more or less than the state gives')
  }
  t.match(expectedAfter(lifecycle.slice(0, 3)), { metadata: { nickname: 'payroll' }, sourceAccount: { metadata: { nickname: 'payroll' } } })
})
