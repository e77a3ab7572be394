// The transfer decider's agent approval, given/when/then: an agent's draft submitted over a limit
// waits in PENDING_AUTHORIZATION until its expiry; APPROVED moves it to PENDING, DECLINED and
// EXPIRED cancel it; a repeat of the decision is a no-op, another one 409; the timer is a no-op once
// decided or once the transfer was cancelled; only an agent's transfer can wait.
import t from 'tap'
import { transferDecider } from '../../../domain/transfer/decider.js'
import type { TransferCommand } from '../../../domain/transfer/decider.js'
import type { TransferEvent } from '../../../domain/transfer/events.js'
import { spec } from '../deciderSpec.js'
import { AGENT, CUSTOMER, ORG, TRANSFER, at, cmd, internalPlan, opened, run } from './transferFixtures.js'

const transfer = spec(transferDecider)
const KEY = 'key_01jdowner0000000000000000'
const EXPIRES = at(86_401)
const agentDraft = () => cmd.create({ ...internalPlan({ status: 'DRAFT' }), agentId: AGENT })
const ask = (now: string): TransferCommand => ({
  organizationId: ORG,
  transferId: TRANSFER,
  now,
  type: 'SubmitTransfer',
  agentApprovalExpiresAt: EXPIRES,
})
const decide = (now: string, decision: 'APPROVED' | 'DECLINED' | 'EXPIRED', note: string | null = null): TransferCommand => ({
  organizationId: ORG,
  transferId: TRANSFER,
  now,
  type: 'DecideAgentApproval',
  decision,
  decidedBy: decision === 'EXPIRED' ? null : KEY,
  note,
})
const seen = { customerId: CUSTOMER, originator: null, agentId: AGENT }
const ref = (seconds: number) => ({ transferId: TRANSFER, organizationId: ORG, at: at(seconds), agentId: AGENT })
const types = (events: TransferEvent[]) => events.map((e) => e.type)

t.test('submitted over a limit: PENDING_AUTHORIZATION with a PENDING approval until its expiry', async (t) => {
  transfer
    .given(run([agentDraft()]))
    .when(ask(at(1)))
    .then(t, [
      {
        type: 'TransferSubmitted',
        data: { ...ref(1), ...seen, status: 'PENDING_AUTHORIZATION', agentApprovalExpiresAt: EXPIRES, agentApprovalStatus: 'PENDING' },
      },
    ])
  const s = opened(run([agentDraft(), ask(at(1))]))
  t.equal(s.status, 'PENDING_AUTHORIZATION')
  t.same(s.agentApproval, { status: 'PENDING', requestedAt: at(1), expiresAt: EXPIRES, decidedAt: null, decidedBy: null, note: null })
  transfer
    .given(run([agentDraft(), ask(at(1))]))
    .when(ask(at(2)))
    .then(t, [])
})

t.test('APPROVED: PENDING, with the approver and the note', async (t) => {
  transfer
    .given(run([agentDraft(), ask(at(1))]))
    .when(decide(at(2), 'APPROVED', 'ok'))
    .then(t, [
      {
        type: 'TransferAgentApprovalDecided',
        data: { ...ref(2), ...seen, status: 'PENDING', decision: 'APPROVED', decidedBy: KEY, note: 'ok', agentApprovalStatus: 'APPROVED' },
      },
    ])
  const s = opened(run([agentDraft(), ask(at(1)), decide(at(2), 'APPROVED', 'ok')]))
  t.equal(s.status, 'PENDING')
  t.match(s.agentApproval, { status: 'APPROVED', decidedAt: at(2), decidedBy: KEY, note: 'ok' })
})

t.test('DECLINED and EXPIRED: the decision, then TransferCancelled', async (t) => {
  for (const decision of ['DECLINED', 'EXPIRED'] as const) {
    const events = transferDecider.decide(decide(at(2), decision), opened(run([agentDraft(), ask(at(1))])))
    t.same(types(events), ['TransferAgentApprovalDecided', 'TransferCancelled'], decision)
    const s = opened(run([agentDraft(), ask(at(1)), decide(at(2), decision)]))
    t.equal(s.status, 'CANCELLED')
    t.equal(s.agentApproval?.status, decision)
  }
})

t.test('once decided: the same decision is a no-op, another 409; the timer a no-op', async (t) => {
  const approved = run([agentDraft(), ask(at(1)), decide(at(2), 'APPROVED')])
  transfer
    .given(approved)
    .when(decide(at(3), 'APPROVED'))
    .then(t, [])
  transfer
    .given(approved)
    .when(decide(at(3), 'DECLINED'))
    .thenThrows(t, 'agent_approval_already_decided')
  transfer
    .given(approved)
    .when(decide(at(3), 'EXPIRED'))
    .then(t, [])
  const expired = run([agentDraft(), ask(at(1)), decide(at(2), 'EXPIRED')])
  transfer
    .given(expired)
    .when(decide(at(3), 'APPROVED'))
    .thenThrows(t, 'agent_approval_already_decided')
})

t.test('cancelled while waiting: the timer is a no-op, a decision 409', async (t) => {
  const cancelled = run([agentDraft(), ask(at(1)), cmd.cancel(at(2))])
  transfer
    .given(cancelled)
    .when(decide(at(3), 'EXPIRED'))
    .then(t, [])
  transfer
    .given(cancelled)
    .when(decide(at(3), 'APPROVED'))
    .thenThrows(t, 'transfer_not_awaiting_agent_approval')
})

t.test('a transfer that waits for no approval: 409', async (t) => {
  transfer
    .given(run([agentDraft()]))
    .when(decide(at(1), 'APPROVED'))
    .thenThrows(t, 'transfer_not_awaiting_agent_approval')
  transfer
    .given(run([cmd.create(internalPlan())]))
    .when(decide(at(1), 'APPROVED'))
    .thenThrows(t, 'transfer_not_awaiting_agent_approval')
})
