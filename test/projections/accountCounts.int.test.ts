// The account counts projector, given events then rows: one count per organization, raised by each
// opened account (one at a time or in a batch: the spec checks both), and by nothing else.
import t from 'tap'
import type { AccountEvent } from '../../domain/account/events.js'
import { accountCountsProjector } from '../../projections/accountCounts.js'
import { projectionDatabase, projectorSpec } from '../domain/projectorSpec.js'

const counts = projectorSpec(await projectionDatabase(t), accountCountsProjector)
const at = '2026-03-01T10:00:00.000Z'

const opened = (accountId: string, organizationId: string): AccountEvent => ({
  type: 'AccountOpened',
  data: {
    accountId,
    organizationId,
    customerId: null,
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
})

t.test('each opened account counts once, per organization; closing one changes nothing', async (t) => {
  const closed: AccountEvent = {
    type: 'AccountClosed',
    data: { accountId: 'acc_2', organizationId: 'org_a', reason: 'CLOSED_BY_CALLER', at },
  }
  await counts.given([opened('acc_1', 'org_a'), opened('acc_2', 'org_a'), opened('acc_3', 'org_b'), closed]).thenRows(t, {
    account_counts: [
      { organization_id: 'org_a', accounts: '2' },
      { organization_id: 'org_b', accounts: '1' },
    ],
  })
})

t.test('no account opened: no row (the list reads 0)', async (t) => {
  await counts.given([]).thenRows(t, { account_counts: [] })
})
