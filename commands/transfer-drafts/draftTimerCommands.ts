// The transfer draft's timer commands as the scheduler stores them (commands/scheduler/schedulableCommands.ts),
// and the command each stands for when it fires: the sandbox engine's step, a no-op once taken.
import { z } from 'zod'
import type { TransferDraftCommand } from '../../domain/transfer-draft/decider.js'

const id = z.string().min(1).max(100)

export const transferDraftTimerCommand = z.strictObject({
  type: z.enum(['StartScreening', 'CompleteScreening']),
  organizationId: id,
  draftId: id,
})
export type TransferDraftTimerCommand = z.infer<typeof transferDraftTimerCommand>

/** `explicit` for the sandbox's advance route (409 when the step does not apply), `timer` for the scheduler. */
export function transferDraftStep(stored: TransferDraftTimerCommand, now: Date, mode: 'timer' | 'explicit'): TransferDraftCommand {
  const base = { organizationId: stored.organizationId, draftId: stored.draftId, now: now.toISOString(), mode }
  return stored.type === 'StartScreening'
    ? { ...base, type: 'StartScreening' }
    : { ...base, type: 'CompleteScreening', decision: { by: 'SANDBOX' } }
}
