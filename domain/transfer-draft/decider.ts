// The transfer draft aggregate (`tdraft_`, its approval record `tda_`): a transfer's content
// registered for platform approval, screened, then used by one transfer. The moves are the table
// in statuses.ts. Pure: the command side loads the facts (ownership, the hash and payees of the body).
//   RegisterDraft: PENDING_APPROVAL, with the sandbox's outcome fixed now (screening.ts), none in production.
//   StartScreening: PENDING_APPROVAL → SCREENING. CompleteScreening: SCREENING → APPROVED | REJECTED, by
//     the sandbox's fixed outcome or an operator's (an operator's decision on a PENDING_APPROVAL draft
//     starts its screening in the same decision). A timer that finds the step done changes nothing.
//   UseDraft: binds one transfer to an APPROVED draft whose hash and payees it matches; the same transfer
//     again is a no-op, another is 409 transfer_draft_used.
import type { Decider } from '../decider.js'
import { DomainError, assertInvariant, conflict, notFound } from '../errors.js'
import type { Environment } from '../shared/environment.js'
import type { TransferDraftEvent, TransferDraftRegisteredData } from './events.js'
import type { ScreeningOutcome } from './screening.js'
import { type TransferDraftStatus, assertDraftMove } from './statuses.js'

export type OpenTransferDraft = {
  status: TransferDraftStatus
  draft: TransferDraftRegisteredData
  /** The transfer created from it, once used. */
  transferId: string | null
  updatedAt: string
}
export type TransferDraftState = { status: 'none' } | OpenTransferDraft

type Ids = { organizationId: string; draftId: string; now: string }

/** `timer`: the sandbox's clock, a no-op once the step is done; `explicit`: an advance or operator, 409 on an illegal move. */
export type StepMode = 'timer' | 'explicit'

export type ScreeningDecision = { by: 'SANDBOX' } | { by: 'OPERATOR'; outcome: ScreeningOutcome }

export type TransferDraftCommand =
  | ({
      type: 'RegisterDraft'
      approvalId: string
      customerId: string
      draftHash: string
      destinationAccountIds: string[]
      environment: Environment
      sandboxOutcome: ScreeningOutcome
    } & Ids)
  | ({ type: 'StartScreening'; mode: StepMode } & Ids)
  | ({ type: 'CompleteScreening'; mode: StepMode; decision: ScreeningDecision } & Ids)
  | ({ type: 'UseDraft'; transferId: string; draftHash: string; destinationAccountIds: string[] } & Ids)

const refOf = (s: OpenTransferDraft) => ({
  draftId: s.draft.draftId,
  organizationId: s.draft.organizationId,
  customerId: s.draft.customerId,
})

/** 409 unless the draft may make a transfer: APPROVED (REJECTED has its own code). */
export function assertApproved(s: OpenTransferDraft): void {
  if (s.status === 'REJECTED') throw conflict('transfer_draft_rejected', `Transfer draft ${s.draft.draftId} is REJECTED`)
  if (s.status !== 'APPROVED')
    throw conflict('transfer_draft_not_approved', `Transfer draft ${s.draft.draftId} is ${s.status}, not APPROVED`)
}

/** 422 unless the transfer's content hashes to the draft's and pays exactly its payees. */
export function assertMatches(s: OpenTransferDraft, draftHash: string, destinationAccountIds: readonly string[]): void {
  const details = []
  if (draftHash !== s.draft.draftHash)
    details.push({ field: 'draftHash', message: `the transfer hashes to ${draftHash}, the draft to ${s.draft.draftHash}` })
  const paid = destinationAccountIds.join(', ') || 'no account'
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i])
  if (!same(destinationAccountIds, s.draft.destinationAccountIds))
    details.push({
      field: 'destinationAccountIds',
      message: `the transfer pays ${paid}, the draft ${s.draft.destinationAccountIds.join(', ')}`,
    })
  if (details.length > 0)
    throw new DomainError('validation', 'transfer_draft_mismatch', `The transfer does not match transfer draft ${s.draft.draftId}`, details)
}

/** A production draft: no sandbox engine screens it, an operator decides (the CLI's `drafts approve|reject`). */
const awaitsOperator = (s: OpenTransferDraft) =>
  conflict('transfer_draft_awaits_operator', `Transfer draft ${s.draft.draftId} is screened by an operator in production`)

function decideStart(command: Extract<TransferDraftCommand, { type: 'StartScreening' }>, s: OpenTransferDraft): TransferDraftEvent[] {
  if (command.mode === 'timer' && (s.status !== 'PENDING_APPROVAL' || s.draft.sandboxOutcome === null)) return []
  if (s.draft.sandboxOutcome === null) throw awaitsOperator(s)
  assertDraftMove(s.draft.draftId, s.status, 'SCREENING')
  return [{ type: 'TransferDraftScreeningStarted', data: { ...refOf(s), decidedBy: 'SANDBOX', at: command.now } }]
}

function decideComplete(command: Extract<TransferDraftCommand, { type: 'CompleteScreening' }>, s: OpenTransferDraft): TransferDraftEvent[] {
  const { decision } = command
  if (command.mode === 'timer' && s.status !== 'SCREENING') return []
  const outcome = decision.by === 'OPERATOR' ? decision.outcome : s.draft.sandboxOutcome
  if (outcome === null) throw awaitsOperator(s)
  const ref = { ...refOf(s), decidedBy: decision.by, at: command.now }
  // An operator deciding a draft still PENDING_APPROVAL starts its screening in the same decision: the path stays the table's.
  const start: TransferDraftEvent[] =
    decision.by === 'OPERATOR' && s.status === 'PENDING_APPROVAL' ? [{ type: 'TransferDraftScreeningStarted', data: ref }] : []
  assertDraftMove(s.draft.draftId, start.length > 0 ? 'SCREENING' : s.status, outcome)
  const end: TransferDraftEvent =
    outcome === 'APPROVED' ? { type: 'TransferDraftApproved', data: ref } : { type: 'TransferDraftRejected', data: ref }
  return [...start, end]
}

/**
 * The refusals of a transfer made from the draft, in order: 409 unless APPROVED, 409 when another
 * transfer used it, 422 when the transfer's content or payees differ. The route checks them before it
 * plans the transfer, the decider again when the draft is used.
 */
export function assertUsable(
  s: OpenTransferDraft,
  use: { transferId: string; draftHash: string; destinationAccountIds: readonly string[] },
) {
  assertApproved(s)
  if (s.transferId !== null && s.transferId !== use.transferId)
    throw conflict('transfer_draft_used', `Transfer draft ${s.draft.draftId} was used by transfer ${s.transferId}`)
  assertMatches(s, use.draftHash, use.destinationAccountIds)
}

function decideUse(command: Extract<TransferDraftCommand, { type: 'UseDraft' }>, s: OpenTransferDraft): TransferDraftEvent[] {
  assertUsable(s, command)
  if (s.transferId === command.transferId) return []
  return [{ type: 'TransferDraftUsed', data: { ...refOf(s), transferId: command.transferId, at: command.now } }]
}

export const transferDraftDecider: Decider<TransferDraftState, TransferDraftCommand, TransferDraftEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'RegisterDraft') {
      if (state.status !== 'none')
        throw new DomainError('conflict', 'resource_already_exists', `Transfer draft ${command.draftId} already exists`)
      const { type: _type, now, environment, sandboxOutcome, ...draft } = command
      return [
        {
          type: 'TransferDraftRegistered',
          data: { ...draft, environment, sandboxOutcome: environment === 'sandbox' ? sandboxOutcome : null, createdAt: now },
        },
      ]
    }
    if (state.status === 'none' || state.draft.organizationId !== command.organizationId) throw notFound('Transfer draft', command.draftId)
    switch (command.type) {
      case 'StartScreening':
        return decideStart(command, state)
      case 'CompleteScreening':
        return decideComplete(command, state)
      case 'UseDraft':
        return decideUse(command, state)
    }
  },

  evolve(state, event) {
    if (event.type === 'TransferDraftRegistered')
      return { status: 'PENDING_APPROVAL', draft: event.data, transferId: null, updatedAt: event.data.createdAt }
    assertInvariant(state.status !== 'none', `${event.type} on a draft that does not exist`)
    const s = { ...state, updatedAt: event.data.at }
    switch (event.type) {
      case 'TransferDraftScreeningStarted':
        return { ...s, status: 'SCREENING' }
      case 'TransferDraftApproved':
        return { ...s, status: 'APPROVED' }
      case 'TransferDraftRejected':
        return { ...s, status: 'REJECTED' }
      case 'TransferDraftUsed':
        assertInvariant(s.status === 'APPROVED', 'only an APPROVED draft is used')
        return { ...s, transferId: event.data.transferId }
    }
  },
}
