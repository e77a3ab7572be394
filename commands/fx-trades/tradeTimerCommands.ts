// The FX trade's timer commands as the scheduler runs them (commands/scheduler/schedulableCommands.ts):
// stored without their facts, which are read when the timer fires: the source wallet's status for
// a screening, the liquidity provider's availability for a settlement, fresh tracking ids for a payout.
import { z } from 'zod'
import { accountDecider } from '../../domain/account/decider.js'
import { type FxTradeCommand, type WalletScreening, fxTradeDecider } from '../../domain/fx-trade/decider.js'
import { DEFAULT_SANDBOX_PROVIDER } from '../../domain/fx-settings/settings.js'
import { legTracking } from '../../domain/transfer/legTracking.js'
import { streams } from '../../events/streams.js'
import { fxSettingsCommands, fxSettingsStreamOf } from '../fx-settings/fxSettingsCommands.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { freshTrackingPool } from '../transfers/trackingPool.js'
import { fxTradeStreamOf } from './tradeCommands.js'

const id = z.string().min(1).max(100)

export const fxTradeTimerCommand = z.strictObject({
  type: z.enum(['ScreenFxTradeWallet', 'ExpireFxTrade', 'SettleFxTradeDeposit', 'CompleteFxTradePayout']),
  organizationId: id,
  tradeId: id,
})
export type FxTradeTimerCommand = z.infer<typeof fxTradeTimerCommand>

async function walletScreening(commands: Commands, accountId: string | null): Promise<WalletScreening> {
  if (accountId === null) return 'ACTIVE'
  const { state } = await commands.load(accountDecider, streams.account(accountId))
  return state.status === 'none' ? 'MISSING' : state.status
}

/** The command a stored timer stands for, with the facts it needs as they are now. */
export async function fxTradeCommandAtFiring(commands: Commands, stored: FxTradeTimerCommand, now: Date): Promise<FxTradeCommand> {
  const base = { organizationId: stored.organizationId, tradeId: stored.tradeId, now: now.toISOString() }
  switch (stored.type) {
    case 'ExpireFxTrade':
      return { ...base, type: 'ExpireFxTrade' }
    case 'ScreenFxTradeWallet': {
      const { state } = await commands.load(fxTradeDecider, fxTradeStreamOf(stored.tradeId))
      const wallet = state.status === 'none' ? 'MISSING' : await walletScreening(commands, state.trade.sourceAccountId)
      return { ...base, type: 'ScreenFxTradeWallet', wallet }
    }
    case 'SettleFxTradeDeposit': {
      const { state } = await commands.load(fxSettingsCommands.decider, fxSettingsStreamOf(stored.organizationId))
      return { ...base, type: 'SettleFxTradeDeposit', providerAvailable: (state.provider ?? DEFAULT_SANDBOX_PROVIDER).available }
    }
    case 'CompleteFxTradePayout': {
      const { state } = await commands.load(fxTradeDecider, fxTradeStreamOf(stored.tradeId))
      const pair = state.status === 'none' ? undefined : state.trade.pair
      const network = pair?.destinationNetwork
      const leg = {
        type: network ? ('PAYOUT_CRYPTO' as const) : ('PAYOUT_FIAT' as const),
        outputRail: network ?? pair?.destinationRail ?? 'SWIFT',
      }
      const tracking = legTracking(leg, freshTrackingPool(now), { untrackedSwift: false, chargesFee: false })
      return { ...base, type: 'CompleteFxTradePayout', tracking }
    }
  }
}
