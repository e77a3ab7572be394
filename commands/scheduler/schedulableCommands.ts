// What the scheduler can run: per aggregate, the commands a timer may carry (a zod schema, checked
// when a row is scheduled and again when it is claimed) and how one fires through the command
// runtime. Clock fields (`now`) are not stored: a command gets the time it fires at.
import { z } from 'zod'
import { type ReviewExternalWallet, externalWalletReviewDecider } from '../../domain/account/externalWalletReview.js'
import type { CustomerCommand } from '../../domain/customer/commands.js'
import { customerDecider } from '../../domain/customer/decider.js'
import { CUSTOMER_LIMITS } from '../../domain/customer/limits.js'
import type { Decider, DomainEvent } from '../../domain/decider.js'
import { type FxQuoteCommand, fxQuoteDecider } from '../../domain/fx-quote/decider.js'
import { fxTradeDecider } from '../../domain/fx-trade/decider.js'
import { type FxTradeTimerCommand, fxTradeCommandAtFiring, fxTradeTimerCommand } from '../fx-trades/tradeTimerCommands.js'
import { environmentSchema } from '../../domain/shared/environment.js'
import { transferDraftDecider } from '../../domain/transfer-draft/decider.js'
import { invoiceDecider } from '../../domain/invoice/decider.js'
import { invoiceCommandAtFiring, invoiceTimerCommand } from '../invoices/invoiceTimerCommands.js'
import { transferDraftStep, transferDraftTimerCommand } from '../transfer-drafts/draftTimerCommands.js'
import { type TransferCommand, transferDecider } from '../../domain/transfer/decider.js'
import { freshTrackingPool } from '../transfers/trackingPool.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { crashPoint } from '../runtime/crashPoints.js'

export type Firing = { commands: Commands; stream: string; context: CommandOrigin; now: Date }

/** A stored command, checked and ready: runs it, resolving to the number of events appended. */
export type LoadedCommand = (firing: Firing) => Promise<number>

export type SchedulableAggregate<Stored> = {
  schema: z.ZodType<Stored>
  /** Throws a ZodError when `json` is not one of this aggregate's timer commands. */
  load(json: unknown): LoadedCommand
}

function schedulable<State, Command, Event extends DomainEvent, Stored>(
  decider: Decider<State, Command, Event>,
  schema: z.ZodType<Stored>,
  atFiring: (stored: Stored, now: Date) => Command,
): SchedulableAggregate<Stored> {
  return {
    schema,
    load(json) {
      const stored = schema.parse(json)
      return async ({ commands, stream, context, now }) => {
        const result = await commands.handle(decider, stream, atFiring(stored, now), context)
        return result.events.length
      }
    },
  }
}

const id = z.string().min(1).max(100)

const customerTimerCommand = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ExpireVerificationSession'), organizationId: id, customerId: id, sessionId: id }),
  z.strictObject({
    type: z.literal('EraseCustomerData'),
    organizationId: id,
    customerId: id,
    trigger: z.literal('RETENTION'),
    erasedBy: z.string().min(1).max(CUSTOMER_LIMITS.erasedByMaxLength),
    reason: z.string().min(1).max(CUSTOMER_LIMITS.erasureReasonMaxLength),
  }),
])

const accountTimerCommand = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ReviewExternalWallet'), organizationId: id, accountId: id, environment: environmentSchema }),
])

const transferTimerCommand = z.discriminatedUnion('type', [
  /** The rails engine's next step, if the transfer has not changed since `after`. */
  z.strictObject({ type: z.literal('AdvanceTransfer'), organizationId: id, transferId: id, after: z.string().max(40) }),
  /** An untracked SWIFT payout, 24 hours on: completed as an assumed settlement. */
  z.strictObject({
    type: z.literal('AssumeSwiftSettlement'),
    organizationId: id,
    transferId: id,
    legIndex: z.number().int().min(0).max(10),
  }),
  /** An agent's transfer still waiting for its owner at its approval's expiresAt: EXPIRED, then cancelled. */
  z.strictObject({ type: z.literal('ExpireAgentApproval'), organizationId: id, transferId: id }),
])

function transferAtFiring(stored: z.infer<typeof transferTimerCommand>, now: Date): TransferCommand {
  const base = { organizationId: stored.organizationId, transferId: stored.transferId, now: now.toISOString() }
  switch (stored.type) {
    case 'AdvanceTransfer':
      return { ...base, type: 'AdvanceTransfer', mode: { by: 'timer', after: stored.after }, pool: freshTrackingPool(now) }
    case 'AssumeSwiftSettlement':
      return { ...base, type: 'AssumeSwiftSettlement', legIndex: stored.legIndex }
    case 'ExpireAgentApproval':
      return { ...base, type: 'DecideAgentApproval', decision: 'EXPIRED', decidedBy: null, note: null }
  }
}

/** A transfer's timers, with the crash point after a leg starts (commands/runtime/crashPoints.ts). */
const transferTimers: SchedulableAggregate<z.infer<typeof transferTimerCommand>> = {
  schema: transferTimerCommand,
  load(json) {
    const stored = transferTimerCommand.parse(json)
    return async ({ commands, stream, context, now }) => {
      const result = await commands.handle(transferDecider, stream, transferAtFiring(stored, now), context)
      if (result.events.some((e) => e.type === 'TransferLegStarted')) crashPoint('transfer-leg-started')
      return result.events.length
    }
  },
}

/** An FX trade's timers: their facts are read when they fire (commands/fx-trades/tradeTimerCommands.ts). */
const fxTradeTimers: SchedulableAggregate<FxTradeTimerCommand> = {
  schema: fxTradeTimerCommand,
  load(json) {
    const stored = fxTradeTimerCommand.parse(json)
    return async ({ commands, stream, context, now }) => {
      const result = await commands.handle(fxTradeDecider, stream, await fxTradeCommandAtFiring(commands, stored, now), context)
      return result.events.length
    }
  },
}

const fxQuoteTimerCommand = z.strictObject({ type: z.literal('ExpireFxQuote'), organizationId: id, quoteId: id })

export const schedulableAggregates = {
  transfer: transferTimers,
  customer: schedulable(customerDecider, customerTimerCommand, (stored, now): CustomerCommand => ({ ...stored, now: now.toISOString() })),
  account: schedulable(externalWalletReviewDecider, accountTimerCommand, (stored, now): ReviewExternalWallet => ({
    ...stored,
    now: now.toISOString(),
  })),
  fxQuote: schedulable(fxQuoteDecider, fxQuoteTimerCommand, (stored, now): FxQuoteCommand => ({ ...stored, now: now.toISOString() })),
  fxTrade: fxTradeTimers,
  transferDraft: schedulable(transferDraftDecider, transferDraftTimerCommand, (stored, now) => transferDraftStep(stored, now, 'timer')),
  invoice: schedulable(invoiceDecider, invoiceTimerCommand, invoiceCommandAtFiring),
}

export type SchedulableAggregateName = keyof typeof schedulableAggregates
export type SchedulableCommand<A extends SchedulableAggregateName> = z.infer<(typeof schedulableAggregates)[A]['schema']>

/** The aggregates a worker runs rows for, by the name stored in the row (tests wrap them). */
export type SchedulableRegistry = Readonly<Record<string, Pick<SchedulableAggregate<unknown>, 'load'>>>
