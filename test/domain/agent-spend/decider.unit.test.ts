// An agent's spending: reservations against the windows, denials recorded (DENIED, or
// APPROVAL_REQUIRED for a REQUEST_APPROVAL agent's submitted draft), agent.limit_reached once per
// window, approvals past the limit, releases, and a month's turn dropping old reservations.
import t from 'tap'
import { type AgentSpendCommand, type AgentSpendState, agentSpendDecider, usageNow } from '../../../domain/agent-spend/decider.js'
import type { AgentSpendEvent } from '../../../domain/agent-spend/events.js'
import { spec } from '../deciderSpec.js'

const limits = { currency: 'USD', perTransaction: '10000', perDay: '25000', perMonth: '40000' }
const now = '2026-11-28T10:00:00.000Z'
const conversion = { currency: 'USD', amountMinor: '0', rate: null, rateSource: null }
const ref = { agentId: 'agt_1', organizationId: 'org_a', now }
const reserve = (transferId: string, amountMinor: string, extra: Partial<AgentSpendCommand> = {}): AgentSpendCommand =>
  ({
    type: 'ReserveSpend',
    ...ref,
    transferId,
    limits,
    overLimitAction: 'DENY',
    submittedDraft: false,
    amountMinor,
    conversion: { ...conversion, amountMinor },
    ...extra,
  }) as AgentSpendCommand
const reserved = (transferId: string, amountMinor: string, at = now): AgentSpendEvent => ({
  type: 'AgentSpendReserved',
  data: {
    agentId: 'agt_1',
    organizationId: 'org_a',
    transferId,
    currency: 'USD',
    amountMinor,
    conversion: { ...conversion, amountMinor },
    at,
  },
})
const spend = spec(agentSpendDecider)

t.test('a reservation within the windows; the same transfer again reserves nothing more', async (t) => {
  spend
    .given([])
    .when(reserve('tfr_1', '8000'))
    .then(t, [reserved('tfr_1', '8000')])
  spend
    .given([reserved('tfr_1', '8000')])
    .when(reserve('tfr_1', '8000'))
    .then(t, [], 'idempotent by transfer')
  const { state } = spend.given([reserved('tfr_1', '8000'), reserved('tfr_2', '9000')])
  t.match(usageNow(state, new Date(now)), { usedDay: 17_000n, usedMonth: 17_000n })
})

t.test('over a limit: recorded as DENIED, or APPROVAL_REQUIRED for a submitted draft of a REQUEST_APPROVAL agent', async (t) => {
  spend
    .given([])
    .when(reserve('tfr_9', '10001'))
    .then(
      t,
      [
        {
          type: 'AgentSpendDenied',
          data: {
            agentId: 'agt_1',
            organizationId: 'org_a',
            transferId: 'tfr_9',
            window: 'PER_TRANSACTION',
            currency: 'USD',
            limitMinor: '10000',
            usedMinor: null,
            attemptedMinor: '10001',
            outcome: 'DENIED',
            at: now,
          },
        },
      ],
      'per transaction: no window reached',
    )
  const full = [reserved('tfr_1', '10000'), reserved('tfr_2', '10000')]
  spend
    .given(full)
    .when(reserve('tfr_3', '6000'))
    .thenMatches(t, [
      { type: 'AgentSpendDenied', data: { window: 'PER_DAY', usedMinor: '20000', outcome: 'DENIED' } },
      {
        type: 'AgentLimitReached',
        data: { window: 'PER_DAY', windowKey: '2026-11-28', usedMinor: '20000', resetsAt: '2026-11-29T00:00:00.000Z' },
      },
    ])
  spend
    .given(full)
    .when(reserve('tfr_3', '6000', { overLimitAction: 'REQUEST_APPROVAL', submittedDraft: true }))
    .thenMatches(t, [{ type: 'AgentSpendDenied', data: { outcome: 'APPROVAL_REQUIRED' } }, { type: 'AgentLimitReached' }])
  spend
    .given(full)
    .when(reserve('tfr_3', '6000', { overLimitAction: 'REQUEST_APPROVAL', submittedDraft: false }))
    .thenMatches(t, [{ type: 'AgentSpendDenied', data: { outcome: 'DENIED' } }], 'a create with confirm is always denied')
})

t.test('agent.limit_reached once per window crossing, not once per denial', async (t) => {
  const filling = spend.given([reserved('tfr_1', '10000'), reserved('tfr_2', '10000')])
  const events = agentSpendDecider.decide(reserve('tfr_3', '5000'), filling.state)
  t.match(
    events,
    [{ type: 'AgentSpendReserved' }, { type: 'AgentLimitReached', data: { window: 'PER_DAY', usedMinor: '25000' } }],
    'filled exactly',
  )
  const after = events.reduce(agentSpendDecider.evolve, filling.state)
  const denied = agentSpendDecider.decide(reserve('tfr_4', '1'), after)
  t.match(denied, [{ type: 'AgentSpendDenied' }])
  t.equal(denied.length, 1, 'no second agent.limit_reached in the same day')
  const tomorrow = agentSpendDecider.decide(reserve('tfr_5', '10000', { now: '2026-11-29T09:00:00.000Z' }), after)
  t.match(tomorrow, [{ type: 'AgentSpendReserved' }], 'a new day: room again (the month holds 35 000 of 40 000)')
})

t.test('approved past the limit, releases, and the month turning', async (t) => {
  const full = [reserved('tfr_1', '10000'), reserved('tfr_2', '10000'), reserved('tfr_3', '5000')]
  spend
    .given(full)
    .when({ type: 'ReserveApprovedSpend', ...ref, transferId: 'tfr_9', currency: 'USD', amountMinor: '9000', conversion })
    .thenMatches(t, [{ type: 'AgentSpendReserved', data: { transferId: 'tfr_9', amountMinor: '9000' } }], "the owner's approval")
  spend
    .given(full)
    .when({ type: 'ReleaseSpend', ...ref, transferId: 'tfr_2', reason: 'CANCELLED' })
    .thenMatches(t, [{ type: 'AgentSpendReleased', data: { transferId: 'tfr_2', amountMinor: '10000', reason: 'CANCELLED' } }])
  spend
    .given(full)
    .when({ type: 'ReleaseSpend', ...ref, transferId: 'tfr_x', reason: 'FAILED' })
    .then(t, [], 'nothing reserved: nothing')
  const released: AgentSpendEvent = {
    type: 'AgentSpendReleased',
    data: {
      agentId: 'agt_1',
      organizationId: 'org_a',
      transferId: 'tfr_2',
      currency: 'USD',
      amountMinor: '10000',
      reservedAt: now,
      reason: 'CANCELLED',
      at: now,
    },
  }
  t.match(usageNow(spend.given([...full, released]).state, new Date(now)), { usedDay: 15_000n })
  spend
    .given([...full, released])
    .when({ type: 'ReleaseSpend', ...ref, transferId: 'tfr_2', reason: 'CANCELLED' })
    .then(t, [], 'once')
  const december = spend.given([...full, reserved('tfr_d', '100', '2026-12-01T00:00:00.000Z')]).state as Extract<
    AgentSpendState,
    { status: 'open' }
  >
  t.same(Object.keys(december.reservations), ['tfr_d'], "November's reservations are dropped in December")
  t.match(december, { month: '2026-12', usedMonth: '100', usedDay: '100' })
})

t.test('reservations one after another never exceed a window together', async (t) => {
  let state: AgentSpendState = agentSpendDecider.initialState()
  let seed = 7
  const next = () => (seed = (seed * 48_271) % 2_147_483_647)
  let total = 0n
  for (let i = 0; i < 200; i++) {
    const amount = String(1 + (next() % 10_000))
    const events = agentSpendDecider.decide(reserve(`tfr_${i}`, amount), state)
    for (const e of events) if (e.type === 'AgentSpendReserved') total += BigInt(e.data.amountMinor)
    state = events.reduce(agentSpendDecider.evolve, state)
  }
  t.ok(total <= 25_000n, `reserved ${total} of a 25 000 daily limit`)
  t.equal(usageNow(state, new Date(now)).usedDay, total, 'the state counts what was reserved')
})
