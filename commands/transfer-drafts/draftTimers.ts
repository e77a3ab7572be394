// The sandbox screening engine's clock: a consumer of a draft's events puts its next step on the
// timer table, in the same transaction as its checkpoint (each row id names the draft and the step,
// so a replay schedules none twice). A production draft (no sandbox outcome) gets no timer: an
// operator decides. The decider ignores a step already taken (by the advance route), so a late timer
// changes nothing.
//   registered (sandbox): start its screening DRAFT_SCREENING_LIMITS.startDelayMs later;
//   screening started: complete it DRAFT_SCREENING_LIMITS.screeningDelayMs later.
import type { Kysely } from 'kysely'
import { TransferDraftRegistered, TransferDraftScreeningStarted } from '../../domain/transfer-draft/events.js'
import { DRAFT_SCREENING_LIMITS } from '../../domain/transfer-draft/screening.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { scheduleCommand } from '../scheduler/scheduleCommand.js'
import type { SchedulerDatabase } from '../scheduler/schema.js'
import { transferDraftStreamOf } from './draftCommands.js'
import type { TransferDraftTimerCommand } from './draftTimerCommands.js'

type Step = TransferDraftTimerCommand['type']

export const transferDraftTimerId = (draftId: string, step: Step) => `transfer-draft:${draftId}:${step}`

async function schedule(db: Kysely<SchedulerDatabase>, ref: { organizationId: string; draftId: string }, step: Step, dueAt: Date) {
  await scheduleCommand(db, {
    id: transferDraftTimerId(ref.draftId, step),
    organizationId: ref.organizationId,
    aggregate: 'transferDraft',
    stream: transferDraftStreamOf(ref.draftId),
    command: { type: step, organizationId: ref.organizationId, draftId: ref.draftId },
    dueAt,
  })
}

const after = (at: string, ms: number) => new Date(Date.parse(at) + ms)

async function scheduleNext(db: Kysely<SchedulerDatabase>, event: RecordedEvent): Promise<void> {
  if (event.type === 'TransferDraftRegistered') {
    const e = TransferDraftRegistered.parse(event.data)
    if (e.sandboxOutcome === null) return
    return schedule(db, e, 'StartScreening', after(e.createdAt, DRAFT_SCREENING_LIMITS.startDelayMs))
  }
  const e = TransferDraftScreeningStarted.parse(event.data)
  // An operator's decision comes with its outcome in the same append: nothing to time.
  if (e.decidedBy === 'SANDBOX') await schedule(db, e, 'CompleteScreening', after(e.at, DRAFT_SCREENING_LIMITS.screeningDelayMs))
}

/** Runs with the workflows (it owns no read-model table): see commands/scheduler/timerConsumers.ts. */
export const transferDraftScheduling: Consumer<SchedulerDatabase> = {
  name: 'transfer_draft_timers',
  handles: new Set(['TransferDraftRegistered', 'TransferDraftScreeningStarted']),
  async apply(trx, events) {
    for (const event of events) await scheduleNext(trx, event)
  },
}
