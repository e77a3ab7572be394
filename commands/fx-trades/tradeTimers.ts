// An FX trade's clock on the scheduler: a consumer of its events puts each next step on the timer
// table, in the same transaction as its checkpoint (a crash loses none; a replay schedules none
// twice: each row id names the trade and the step). The trade's decider ignores a step that no
// longer applies, so a timer that fires late or after the trade moved on changes nothing.
//   created PENDING_WALLET_APPROVAL: screen the wallet once its own review is due, and at the deadline;
//   awaiting its deposit (created, or wallet approved): expire it at depositDeadline;
//   deposit received: settle it after the source rail's sandbox delay;
//   payout requested: complete it after the destination rail's sandbox delay.
import type { Kysely } from 'kysely'
import { EXTERNAL_WALLET_REVIEW_LIMITS } from '../../domain/account/externalWalletReview.js'
import { FxTradeCreated, FxTradeDepositReceived, FxTradePayoutRequested, FxTradeWalletApproved } from '../../domain/fx-trade/events.js'
import type { SandboxDelayOverrides } from '../../domain/rails/index.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { stepDelay } from '../transfers/railsScheduling.js'
import { scheduleCommand } from '../scheduler/scheduleCommand.js'
import type { SchedulerDatabase } from '../scheduler/schema.js'
import { fxTradeStreamOf } from './tradeCommands.js'

type Step = 'ScreenFxTradeWallet' | 'ExpireFxTrade' | 'SettleFxTradeDeposit' | 'CompleteFxTradePayout'

/** The timer's id, and so its command's commandId: one per trade, step and occasion. */
export const fxTradeTimerId = (tradeId: string, step: Step, occasion: string) => `fx-trade:${tradeId}:${step}:${occasion}`

async function schedule(
  db: Kysely<SchedulerDatabase>,
  ref: { organizationId: string; tradeId: string },
  step: Step,
  occasion: string,
  dueAt: Date,
) {
  await scheduleCommand(db, {
    id: fxTradeTimerId(ref.tradeId, step, occasion),
    organizationId: ref.organizationId,
    aggregate: 'fxTrade',
    stream: fxTradeStreamOf(ref.tradeId),
    command: { type: step, organizationId: ref.organizationId, tradeId: ref.tradeId },
    dueAt,
  })
}

const after = (at: string, ms: number) => new Date(Date.parse(at) + ms)

async function scheduleNext(db: Kysely<SchedulerDatabase>, event: RecordedEvent, delayOf: (rail: string) => number): Promise<void> {
  switch (event.type) {
    case 'FxTradeCreated': {
      const e = FxTradeCreated.parse(event.data)
      if (e.status === 'AWAITING_DEPOSIT') return schedule(db, e, 'ExpireFxTrade', 'deadline', new Date(e.depositDeadline!))
      await schedule(db, e, 'ScreenFxTradeWallet', 'review', after(e.createdAt, EXTERNAL_WALLET_REVIEW_LIMITS.reviewDelayMs + 1000))
      return schedule(db, e, 'ScreenFxTradeWallet', 'deadline', new Date(e.screeningDeadline!))
    }
    case 'FxTradeWalletApproved': {
      const e = FxTradeWalletApproved.parse(event.data)
      return schedule(db, e, 'ExpireFxTrade', 'deadline', new Date(e.depositDeadline))
    }
    case 'FxTradeDepositReceived': {
      const e = FxTradeDepositReceived.parse(event.data)
      return schedule(db, e, 'SettleFxTradeDeposit', 'deposit', after(e.at, delayOf(e.rail)))
    }
    case 'FxTradePayoutRequested': {
      const e = FxTradePayoutRequested.parse(event.data)
      return schedule(db, e, 'CompleteFxTradePayout', 'payout', after(e.at, delayOf(e.rail)))
    }
  }
}

/** Runs with the workflows (it owns no read-model table): see commands/scheduler/timerConsumers.ts. */
export const fxTradeScheduling = (delays: SandboxDelayOverrides): Consumer<SchedulerDatabase> => ({
  name: 'fx_trade_timers',
  handles: new Set(['FxTradeCreated', 'FxTradeWalletApproved', 'FxTradeDepositReceived', 'FxTradePayoutRequested']),
  async apply(trx, events) {
    const delayOf = stepDelay(delays)
    for (const event of events) await scheduleNext(trx, event, delayOf)
  },
})
