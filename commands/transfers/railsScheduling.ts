// The sandbox rails engine on the scheduler: after every change of a transfer, the timer of its
// next step (domain/transfer/nextStep.ts) goes on the timer table, in the same transaction as this
// consumer's checkpoint, due after the rail's sandbox delay. The timer names the change it follows
// (`after`): a transfer changed meanwhile (an operator advanced it) makes it a no-op, and its id
// (the transfer and that moment) makes scheduling it twice a no-op. Sandbox only: production rails
// report their own progress.
import type { Kysely } from 'kysely'
import { isSandboxRail, sandboxStepDelayMs, type SandboxDelayOverrides } from '../../domain/rails/index.js'
import { CHAINS, type Chain } from '../../domain/shared/chain/index.js'
import type { Environment } from '../../domain/shared/environment.js'
import { transferDecider } from '../../domain/transfer/decider.js'
import { type TransferCreatedData, transferEventSchemas } from '../../domain/transfer/events.js'
import { nextStep } from '../../domain/transfer/nextStep.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { scheduleCommand } from '../scheduler/scheduleCommand.js'
import type { SchedulerDatabase } from '../scheduler/schema.js'

/** A TransferCreated the consumer runtime has parsed with its schema already (events/consumers/applyBatch.ts). */
const parsedCreated = (data: Record<string, unknown>) => data as TransferCreatedData

const isChain = (rail: string): rail is Chain => (CHAINS as readonly string[]).includes(rail)

export const stepDelay =
  (overrides: SandboxDelayOverrides) =>
  (rail: string): number =>
    isSandboxRail(rail) || isChain(rail) ? sandboxStepDelayMs(rail, overrides) : sandboxStepDelayMs('BALANCE', overrides)

export const transferRailsScheduling = (settings: {
  environment: Environment
  commands: Commands
  delays: SandboxDelayOverrides
}): Consumer<SchedulerDatabase> => ({
  name: 'transfer_rails_timers',
  handles: new Set(Object.keys(transferEventSchemas)),
  async apply(trx: Kysely<SchedulerDatabase>, events) {
    if (settings.environment !== 'sandbox') return
    // One look per transfer of the batch: its state now decides its next step. A transfer created in
    // this batch and not changed since is its TransferCreated alone (no read).
    const last = new Map<string, RecordedEvent>()
    for (const event of events) last.set(String(event.data.transferId), event)
    for (const [transferId, event] of last) {
      const state =
        event.type === 'TransferCreated'
          ? transferDecider.evolve(transferDecider.initialState(), { type: 'TransferCreated', data: parsedCreated(event.data) })
          : (await settings.commands.load(transferDecider, streams.transfer(transferId))).state
      if (state.status === 'none') continue
      const step = nextStep(state, stepDelay(settings.delays))
      if (!step) continue
      const organizationId = state.created.organizationId
      const stream = streams.transfer(transferId)
      if (step.kind === 'advance')
        await scheduleCommand(trx, {
          id: `transfer-step:${transferId}:${state.updatedAt}`,
          organizationId,
          aggregate: 'transfer',
          stream,
          command: { type: 'AdvanceTransfer', organizationId, transferId, after: state.updatedAt },
          dueAt: step.dueAt,
        })
      else
        await scheduleCommand(trx, {
          id: `transfer-swift-assumed:${transferId}:${step.legIndex}`,
          organizationId,
          aggregate: 'transfer',
          stream,
          command: { type: 'AssumeSwiftSettlement', organizationId, transferId, legIndex: step.legIndex },
          dueAt: step.dueAt,
        })
    }
  },
})
