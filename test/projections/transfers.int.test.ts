// The transfers projector, given events then rows: a row per transfer, its filter columns copied
// out of the state the decider's own evolve gives, the state stored with the remitter sealed (the
// spec fails on any in clear, then shows it opened); a batch gives the rows one-by-one gives.
import t from 'tap'
import type { TransferEvent } from '../../domain/transfer/events.js'
import { transfersProjector } from '../../projections/transfers.js'
import { projectionDatabase, projectorSpec } from '../domain/projectorSpec.js'
import { ORIGINATOR, transferPlan } from '../transfers/reads/fixtures.js'

const transfers = projectorSpec(await projectionDatabase(t), transfersProjector)
const at = '2026-11-24T10:00:00.000Z'
const later = '2026-11-24T10:05:00.000Z'

const created = (transferId: string, spec: Partial<Parameters<typeof transferPlan>[0]> = {}): TransferEvent => ({
  type: 'TransferCreated',
  data: { ...transferPlan({ customerId: 'cus_a', ...spec }), transferId, organizationId: 'org_a', at },
})
const ref = (transferId: string, when = later) => ({ transferId, organizationId: 'org_a', at: when })
const funded = (transferId: string): TransferEvent => ({
  type: 'TransferFunded',
  data: {
    ...ref(transferId),
    customerId: 'cus_a',
    method: 'BALANCE',
    accountId: 'acc_funding',
    holdId: 'hld_1',
    fundingCustomerId: 'cus_a',
    note: null,
    originator: ORIGINATOR,
    tracking: {},
  },
})

t.test('created: the row, its filter columns from the plan', async (t) => {
  await transfers
    .given([
      created('tfr_1', {
        destinationCustomerId: 'cus_b',
        sourceAccountId: 'acc_1',
        destinationAccountId: 'acc_2',
        counterpartyId: 'cp_1',
        clientReferenceId: 'invoice-1',
        agentId: 'agt_1',
        flow: 'FX',
      }),
      created('tfr_2', { draft: true }),
    ])
    .thenRows(t, {
      transfers: [
        {
          id: 'tfr_1',
          organization_id: 'org_a',
          customer_id: 'cus_a',
          destination_customer_id: 'cus_b',
          counterparty_id: 'cp_1',
          agent_id: 'agt_1',
          agent_approval_status: null,
          client_reference_id: 'invoice-1',
          flow: 'FX',
          status: 'PENDING',
          source_account_id: 'acc_1',
          destination_account_id: 'acc_2',
          created_at: at,
          updated_at: at,
          state: { status: 'PENDING', created: { transferId: 'tfr_1', customerId: 'cus_a' }, funding: null, currentLegIndex: 0 },
        },
        { id: 'tfr_2', status: 'DRAFT', destination_customer_id: null, counterparty_id: null, client_reference_id: null, flow: 'INTERNAL' },
      ],
    })
})

t.test('funded: status and the funding account written back, the originator sealed at rest and opened for reads', async (t) => {
  await transfers.given([created('tfr_1'), funded('tfr_1')]).thenRows(t, {
    transfers: [
      {
        id: 'tfr_1',
        status: 'PROCESSING',
        source_account_id: 'acc_funding',
        created_at: at,
        updated_at: later,
        state: { status: 'PROCESSING', funding: { method: 'BALANCE', originator: ORIGINATOR }, currentLegIndex: 1 },
      },
    ],
  })
})

t.test('every later event evolves the stored state: submit, fund, review, clear, legs, completion, reversal', async (t) => {
  const seen = { customerId: 'cus_a', originator: ORIGINATOR }
  const events: TransferEvent[] = [
    created('tfr_1', { draft: true }),
    created('tfr_2'),
    { type: 'TransferSubmitted', data: { ...ref('tfr_1'), customerId: 'cus_a', originator: null, status: 'PENDING' } },
    funded('tfr_1'),
    { type: 'TransferHeldForReview', data: { ...ref('tfr_1'), ...seen, code: 'compliance_review', reason: 'review' } },
    { type: 'TransferReviewCleared', data: { ...ref('tfr_1'), ...seen } },
    { type: 'TransferLegStarted', data: { ...ref('tfr_1'), ...seen, index: 1, tracking: {} } },
    { type: 'TransferLegCompleted', data: { ...ref('tfr_1'), ...seen, index: 1, tracking: {} } },
    { type: 'TransferCompleted', data: { ...ref('tfr_1'), systemRemark: null, transaction: null } },
    {
      type: 'TransferReversed',
      data: { ...ref('tfr_1', '2026-11-24T11:00:00.000Z'), code: 'R01', reason: 'returned', returnedToAccountId: 'acc_funding' },
    },
    { type: 'TransferFailed', data: { ...ref('tfr_2'), code: 'rail_rejected', reason: 'rejected' } },
  ]
  await transfers.given(events).thenRows(t, {
    transfers: [
      {
        id: 'tfr_1',
        status: 'REVERSED',
        updated_at: '2026-11-24T11:00:00.000Z',
        state: {
          status: 'REVERSED',
          reviewed: true,
          returnedToAccountId: 'acc_funding',
          legs: [{ status: 'COMPLETED' }, { status: 'COMPLETED' }],
        },
      },
      { id: 'tfr_2', status: 'FAILED', state: { failure: { code: 'rail_rejected' } } },
    ],
  })
})

t.test('an event for a transfer with no row fails the batch', async (t) => {
  await transfers.given([funded('tfr_missing')]).thenThrows(t, /TransferFunded for transfer tfr_missing, which has no row/)
})
