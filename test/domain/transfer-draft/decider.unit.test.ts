// The transfer draft decider, given/when/then: registration (the sandbox's outcome fixed, none in
// production), the status table (PENDING_APPROVAL → SCREENING → APPROVED | REJECTED; a 409 naming
// both states on any other move; a timer that finds its step done is a no-op), an operator's
// decision, and the one transfer a draft makes (its hash and payees matched).
import t, { type Test } from 'tap'
import { type TransferDraftCommand, transferDraftDecider } from '../../../domain/transfer-draft/decider.js'
import type { TransferDraftEvent } from '../../../domain/transfer-draft/events.js'
import { DomainError } from '../../../domain/errors.js'
import { spec } from '../deciderSpec.js'

const draft = spec(transferDraftDecider)
const at = (seconds: number) => new Date(Date.parse('2026-11-28T10:00:00.000Z') + seconds * 1000).toISOString()
const ids = { organizationId: 'org_a', draftId: 'tdraft_1' }
const ref = { ...ids, customerId: 'cus_1' }
const HASH = `sha256:${'a'.repeat(64)}`
const OTHER_HASH = `sha256:${'b'.repeat(64)}`

const register = (environment: 'sandbox' | 'production' = 'sandbox', sandboxOutcome: 'APPROVED' | 'REJECTED' = 'APPROVED') =>
  ({
    type: 'RegisterDraft',
    ...ids,
    approvalId: 'tda_1',
    customerId: 'cus_1',
    draftHash: HASH,
    destinationAccountIds: ['eba_1'],
    environment,
    sandboxOutcome,
    now: at(0),
  }) satisfies TransferDraftCommand

const registered = (outcome: 'APPROVED' | 'REJECTED' | null = 'APPROVED'): TransferDraftEvent => ({
  type: 'TransferDraftRegistered',
  data: {
    ...ref,
    approvalId: 'tda_1',
    draftHash: HASH,
    destinationAccountIds: ['eba_1'],
    environment: outcome === null ? 'production' : 'sandbox',
    sandboxOutcome: outcome,
    createdAt: at(0),
  },
})
const started = (by: 'SANDBOX' | 'OPERATOR' = 'SANDBOX', s = 2): TransferDraftEvent => ({
  type: 'TransferDraftScreeningStarted',
  data: { ...ref, decidedBy: by, at: at(s) },
})
const approved: TransferDraftEvent = { type: 'TransferDraftApproved', data: { ...ref, decidedBy: 'SANDBOX', at: at(7) } }
const rejected: TransferDraftEvent = { type: 'TransferDraftRejected', data: { ...ref, decidedBy: 'SANDBOX', at: at(7) } }
const start = (mode: 'timer' | 'explicit' = 'timer', s = 2): TransferDraftCommand => ({ type: 'StartScreening', ...ids, mode, now: at(s) })
const complete = (mode: 'timer' | 'explicit' = 'timer'): TransferDraftCommand => ({
  type: 'CompleteScreening',
  ...ids,
  mode,
  decision: { by: 'SANDBOX' },
  now: at(7),
})
const operator = (outcome: 'APPROVED' | 'REJECTED', s = 60): TransferDraftCommand => ({
  type: 'CompleteScreening',
  ...ids,
  mode: 'explicit',
  decision: { by: 'OPERATOR', outcome },
  now: at(s),
})
const use = (transferId = 'tfr_1', draftHash = HASH, destinationAccountIds = ['eba_1']): TransferDraftCommand => ({
  type: 'UseDraft',
  ...ids,
  transferId,
  draftHash,
  destinationAccountIds,
  now: at(10),
})

function conflictMessage(t: Test, given: TransferDraftEvent[], command: TransferDraftCommand): string {
  try {
    transferDraftDecider.decide(command, given.reduce(transferDraftDecider.evolve, transferDraftDecider.initialState()))
  } catch (error) {
    if (error instanceof DomainError) return error.message
  }
  t.fail('expected a refusal')
  return ''
}

t.test('registered PENDING_APPROVAL, the sandbox outcome fixed; none in production; never twice', async (t) => {
  draft
    .given([])
    .when(register())
    .then(t, [registered('APPROVED')])
  draft
    .given([])
    .when(register('sandbox', 'REJECTED'))
    .then(t, [registered('REJECTED')])
  draft
    .given([])
    .when(register('production', 'REJECTED'))
    .then(t, [registered(null)], 'production: an operator decides')
  t.equal(draft.given([registered()]).state.status, 'PENDING_APPROVAL')
  draft.given([registered()]).when(register()).thenThrows(t, 'resource_already_exists')
  draft.given([]).when(start()).thenThrows(t, 'resource_not_found')
  draft
    .given([registered()])
    .when({ ...use(), organizationId: 'org_b' })
    .thenThrows(t, 'resource_not_found', "another organization's draft does not exist for it")
})

t.test('the sandbox screens: PENDING_APPROVAL → SCREENING → APPROVED or REJECTED', async (t) => {
  draft.given([registered()]).when(start()).then(t, [started()])
  t.equal(draft.given([registered(), started()]).state.status, 'SCREENING')
  draft.given([registered(), started()]).when(complete()).then(t, [approved])
  draft
    .given([registered('REJECTED'), started()])
    .when(complete())
    .then(t, [rejected])
  t.equal(draft.given([registered(), started(), approved]).state.status, 'APPROVED')
  t.equal(draft.given([registered('REJECTED'), started(), rejected]).state.status, 'REJECTED')
})

t.test('a timer that finds its step done changes nothing; an explicit move off the table is 409 naming both states', async (t) => {
  draft.given([registered(), started()]).when(start()).then(t, [], 'screening already started')
  draft.given([registered()]).when(complete()).then(t, [], 'not screening yet')
  draft.given([registered(), started(), approved]).when(complete()).then(t, [], 'already approved')
  draft.given([registered(), started()]).when(start('explicit')).thenThrows(t, 'transfer_draft_invalid_transition')
  t.match(conflictMessage(t, [registered(), started()], start('explicit')), /from SCREENING to SCREENING/)
  t.match(conflictMessage(t, [registered(), started(), approved], complete('explicit')), /from APPROVED to APPROVED/)
  t.match(conflictMessage(t, [registered()], complete('explicit')), /from PENDING_APPROVAL to APPROVED/)
  t.match(conflictMessage(t, [registered('REJECTED'), started(), rejected], operator('APPROVED')), /from REJECTED to APPROVED/)
})

t.test('in production an operator decides, starting the screening when it has not started', async (t) => {
  const ops = { ...ref, decidedBy: 'OPERATOR' as const, at: at(60) }
  draft
    .given([registered(null)])
    .when(start())
    .then(t, [], 'no engine: the draft stays PENDING_APPROVAL')
  draft
    .given([registered(null), started()])
    .when(complete())
    .thenThrows(t, 'transfer_draft_awaits_operator')
  draft
    .given([registered(null)])
    .when(operator('APPROVED'))
    .then(t, [
      { type: 'TransferDraftScreeningStarted', data: ops },
      { type: 'TransferDraftApproved', data: ops },
    ])
  draft
    .given([registered(null), started('OPERATOR', 30)])
    .when(operator('REJECTED'))
    .then(t, [{ type: 'TransferDraftRejected', data: ops }])
})

t.test('one transfer per APPROVED draft, matching its hash and payees', async (t) => {
  const ok = [registered(), started(), approved]
  const used: TransferDraftEvent = { type: 'TransferDraftUsed', data: { ...ref, transferId: 'tfr_1', at: at(10) } }
  draft.given(ok).when(use()).then(t, [used])
  t.equal(draft.given([...ok, used]).state.status, 'APPROVED', 'used, it stays APPROVED')
  draft
    .given([...ok, used])
    .when(use())
    .then(t, [], 'the same transfer again: a no-op')
  draft
    .given([...ok, used])
    .when(use('tfr_2'))
    .thenThrows(t, 'transfer_draft_used')
  draft.given([registered()]).when(use()).thenThrows(t, 'transfer_draft_not_approved')
  draft.given([registered(), started()]).when(use()).thenThrows(t, 'transfer_draft_not_approved')
  t.match(conflictMessage(t, [registered(), started()], use()), /is SCREENING/)
  draft
    .given([registered('REJECTED'), started(), rejected])
    .when(use())
    .thenThrows(t, 'transfer_draft_rejected')
  draft.given(ok).when(use('tfr_1', OTHER_HASH)).thenThrows(t, 'transfer_draft_mismatch', 'another content')
  draft
    .given(ok)
    .when(use('tfr_1', HASH, ['eba_2']))
    .thenThrows(t, 'transfer_draft_mismatch', 'another payee')
  try {
    transferDraftDecider.decide(use('tfr_1', OTHER_HASH), ok.reduce(transferDraftDecider.evolve, transferDraftDecider.initialState()))
  } catch (error) {
    t.match(error, { kind: 'validation', details: [{ field: 'draftHash' }] }, 'the details name draftHash')
  }
})
