// The transfer status table (domain/transfer/statuses.ts) and the decider enforcing it: canMove
// agrees with the table for every pair of statuses, and every command that moves a status is
// refused (409, nothing decided) from every status the table does not let it leave for its target.
// States come from folding the events the decider itself decided (transferFixtures.ts).
import t from 'tap'
import { DomainError } from '../../../domain/errors.js'
import {
  TERMINAL_STATUSES,
  TRANSFER_STATUSES,
  TRANSFER_TRANSITIONS,
  type TransferStatus,
  assertMove,
  canMove,
} from '../../../domain/transfer/statuses.js'
import { type TransferCommand, transferDecider } from '../../../domain/transfer/decider.js'
import { TRANSFER, at, cmd, eventsTo, fold, refusal } from './transferFixtures.js'

/** The table as the header comment of statuses.ts draws it, written out again pair by pair. */
const ALLOWED = new Set([
  'DRAFT>PENDING',
  'DRAFT>PENDING_AUTHORIZATION',
  'DRAFT>CANCELLED',
  'DRAFT>FAILED',
  'PENDING_AUTHORIZATION>PENDING',
  'PENDING_AUTHORIZATION>CANCELLED',
  'PENDING_AUTHORIZATION>FAILED',
  'PENDING>PROCESSING',
  'PENDING>IN_REVIEW',
  'PENDING>CANCELLED',
  'PENDING>FAILED',
  'PROCESSING>COMPLETED',
  'PROCESSING>IN_REVIEW',
  'IN_REVIEW>PROCESSING',
  'IN_REVIEW>REVERSED',
  'COMPLETED>REVERSED',
  'COMPLETED>IN_REVIEW',
  'REVERSED>IN_REVIEW',
])

t.test('canMove agrees with the table for every (from, to) pair', async (t) => {
  t.equal(TRANSFER_STATUSES.length, 9, 'the spec’s nine statuses')
  for (const from of TRANSFER_STATUSES)
    for (const to of TRANSFER_STATUSES) {
      t.equal(canMove(from, to), TRANSFER_TRANSITIONS[from].includes(to), `${from} → ${to} as the table says`)
      t.equal(canMove(from, to), ALLOWED.has(`${from}>${to}`), `${from} → ${to} as the header draws it`)
    }
  t.same(
    TRANSFER_STATUSES.filter(
      (s) => TRANSFER_TRANSITIONS[s].length === 0 || (s === 'REVERSED' && TRANSFER_TRANSITIONS[s].join() === 'IN_REVIEW'),
    ),
    TERMINAL_STATUSES,
    'the terminal statuses: no way out, but REVERSED, whose returned money may be held (IN_REVIEW)',
  )
  t.notOk(
    TRANSFER_STATUSES.some((s) => canMove(s, s)),
    'no status moves to itself',
  )
})

t.test('assertMove: a 409 transfer_invalid_transition naming both states', async (t) => {
  for (const from of TRANSFER_STATUSES)
    for (const to of TRANSFER_STATUSES) {
      if (canMove(from, to)) {
        t.doesNotThrow(() => assertMove(TRANSFER, from, to))
        continue
      }
      try {
        assertMove(TRANSFER, from, to)
        t.fail(`${from} → ${to} allowed`)
      } catch (error) {
        t.ok(error instanceof DomainError)
        const e = error as DomainError
        t.equal(e.kind, 'conflict')
        t.equal(e.code, 'transfer_invalid_transition')
        t.match(e.message, `from ${from} to ${to}`, `${from} → ${to} named`)
      }
    }
})

t.test('the fixture states really are in each status', async (t) => {
  for (const status of TRANSFER_STATUSES) t.equal(fold(eventsTo(status)).status, status, status)
})

type Case = {
  name: string
  command: TransferCommand
  /** The status the command moves to from `from`. */
  target: (from: TransferStatus) => TransferStatus
  /** From these statuses the command is a no-op (a repeat of what already happened), not a refusal. */
  idempotentIn: TransferStatus[]
  /** Refused here although the table has the move: the command's own rule is stricter. */
  alsoRefusedIn: TransferStatus[]
  /** Accepted here without a status move (the transfer is already in the target status). */
  noMoveIn: TransferStatus[]
  /** Allowed codes besides transfer_invalid_transition (the command's own 409s). */
  ownCodes: string[]
}

const funded = (s: TransferStatus) => ['PROCESSING', 'IN_REVIEW', 'COMPLETED', 'REVERSED'].includes(s)
const none = { idempotentIn: [], alsoRefusedIn: [], noMoveIn: [], ownCodes: [] }

const CASES: Case[] = [
  {
    ...none,
    name: 'SubmitTransfer',
    command: cmd.submit(at(9)),
    target: () => 'PENDING',
    // Already submitted (waiting for funds or an approval): a retried submit changes nothing.
    idempotentIn: ['PENDING', 'PENDING_AUTHORIZATION'],
  },
  { ...none, name: 'CancelTransfer', command: cmd.cancel(at(9)), target: () => 'CANCELLED', idempotentIn: ['CANCELLED'] },
  {
    ...none,
    name: 'FundTransfer (another hold)',
    command: cmd.fundBalance(at(9), 'hld_01jdtfr00000000000000another'),
    target: () => 'PROCESSING',
    // Back to PROCESSING from review is the operator's clearing, not a second funding.
    alsoRefusedIn: ['IN_REVIEW'],
    ownCodes: ['transfer_not_submitted', 'transfer_not_awaiting_funds', 'transfer_already_funded'],
  },
  {
    ...none,
    name: 'FailTransfer',
    command: cmd.fail(at(9)),
    // Funds received: review, never FAILED.
    target: (from) => (funded(from) ? 'IN_REVIEW' : 'FAILED'),
    idempotentIn: ['FAILED', 'IN_REVIEW'],
    // After completion only money coming back is held in review (suspense), never a failure.
    alsoRefusedIn: ['COMPLETED', 'REVERSED'],
  },
  { ...none, name: 'ReverseTransfer', command: cmd.reverse(at(9)), target: () => 'REVERSED', idempotentIn: ['REVERSED'] },
  {
    name: 'InitiateRefund',
    command: cmd.refund(at(9)),
    target: () => 'REVERSED',
    idempotentIn: [],
    // A completed payout is reversed by the rail (ReverseTransfer) before it is refunded.
    alsoRefusedIn: ['COMPLETED'],
    noMoveIn: ['REVERSED'],
    ownCodes: ['transfer_not_funded', 'transfer_not_refundable'],
  },
]

for (const c of CASES)
  t.test(`${c.name}: refused with a 409 from every status the table forbids, deciding nothing`, async (t) => {
    for (const from of TRANSFER_STATUSES) {
      const state = fold(eventsTo(from))
      const to = c.target(from)
      if (c.idempotentIn.includes(from)) {
        t.same(transferDecider.decide(c.command, state), [], `${from}: a repeat decides nothing`)
        continue
      }
      if (c.noMoveIn.includes(from)) {
        const events = transferDecider.decide(c.command, state)
        t.equal(events.reduce(transferDecider.evolve, state).status, from, `${from}: accepted, the status stays`)
        continue
      }
      if (canMove(from, to) && !c.alsoRefusedIn.includes(from)) {
        const events = transferDecider.decide(c.command, state)
        t.equal(events.reduce(transferDecider.evolve, state).status, to, `${from} → ${to} is allowed and made`)
        continue
      }
      const error = refusal(t, c.command, state)
      if (!error) continue
      t.equal(error.kind, 'conflict', `${from}: a conflict`)
      t.ok([...c.ownCodes, 'transfer_invalid_transition'].includes(error.code), `${from}: ${error.code}`)
      if (error.code === 'transfer_invalid_transition') t.match(error.message, `from ${from} to ${to}`, `${from}: names both states`)
    }
  })

t.test('AdvanceTransfer by an operator: 409 transfer_not_advanceable wherever the rails have no step', async (t) => {
  for (const from of TRANSFER_STATUSES) {
    const state = fold(eventsTo(from))
    const command = cmd.advance(at(9))
    if (from === 'PROCESSING' || from === 'IN_REVIEW') {
      const events = transferDecider.decide(command, state)
      t.ok(events.length > 0, `${from}: a step`)
      for (const e of events) {
        const next = transferDecider.evolve(state, e)
        if (next.status !== 'none' && next.status !== from) t.ok(canMove(from, next.status), `${from} → ${next.status} in the table`)
      }
      continue
    }
    const error = refusal(t, command, state)
    t.equal(error?.kind, 'conflict', `${from}: a conflict`)
    t.equal(error?.code, 'transfer_not_advanceable', `${from}: nothing to advance`)
    if (state.status !== 'none') t.same(transferDecider.decide(cmd.tick(at(9), state.updatedAt), state), [], `${from}: a timer is a no-op`)
  }
})

t.test('every status the decider ever reaches by one event is a move of the table', async (t) => {
  for (const from of TRANSFER_STATUSES) {
    const state = fold(eventsTo(from))
    for (const command of [
      cmd.submit(at(9)),
      cmd.cancel(at(9)),
      cmd.fail(at(9)),
      cmd.advance(at(9)),
      cmd.reverse(at(9)),
      cmd.refund(at(9)),
    ]) {
      let events
      try {
        events = transferDecider.decide(command, state)
      } catch {
        continue
      }
      let s = state
      for (const e of events) {
        const next = transferDecider.evolve(s, e)
        if (s.status !== 'none' && next.status !== 'none' && next.status !== s.status)
          t.ok(canMove(s.status, next.status), `${command.type} from ${s.status}: ${next.status} is in the table`)
        s = next
      }
    }
  }
})
