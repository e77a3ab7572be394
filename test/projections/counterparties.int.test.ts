// The counterparties projector, given events then rows: a row per active counterparty, its
// address's street lines sealed (the spec fails on any in clear, then shows them opened).
import t from 'tap'
import type { CounterpartyEvent } from '../../domain/counterparty/events.js'
import { counterpartiesProjector } from '../../projections/counterparties.js'
import { projectionDatabase, projectorSpec } from '../domain/projectorSpec.js'

const counterparties = projectorSpec(await projectionDatabase(t), counterpartiesProjector)
const at = '2026-11-24T10:00:00.000Z'
const address = { addressLine1: '1 Main St', addressLine2: 'Floor 2', city: 'Austin', postalCode: '78701', country: 'US' as const }

const created = (counterpartyId: string, over: Partial<Extract<CounterpartyEvent, { type: 'CounterpartyCreated' }>['data']> = {}) =>
  ({
    type: 'CounterpartyCreated',
    data: {
      counterpartyId,
      organizationId: 'org_a',
      customerId: 'cus_1',
      name: 'Jane Payee',
      beneficiaryType: 'INDIVIDUAL',
      address,
      isThirdParty: true,
      metadata: { ref: 'x' },
      createdAt: at,
      ...over,
    },
  }) satisfies CounterpartyEvent

t.test('created: the row, its address sealed at rest and opened for reads', async (t) => {
  await counterparties
    .given([created('cp_1'), created('cp_2', { address: null, isThirdParty: false, beneficiaryType: 'BUSINESS' })])
    .thenRows(t, {
      counterparties: [
        {
          id: 'cp_1',
          organization_id: 'org_a',
          customer_id: 'cus_1',
          name: 'Jane Payee',
          beneficiary_type: 'INDIVIDUAL',
          is_third_party: true,
          address,
          metadata: { ref: 'x' },
          created_at: at,
          updated_at: at,
        },
        { id: 'cp_2', address: null, is_third_party: false, beneficiary_type: 'BUSINESS' },
      ],
    })
})

t.test('deleted: the row goes', async (t) => {
  await counterparties
    .given([created('cp_1'), created('cp_2'), { type: 'CounterpartyDeleted', data: { counterpartyId: 'cp_1', deletedAt: at } }])
    .thenRows(t, { counterparties: [{ id: 'cp_2' }] })
})
