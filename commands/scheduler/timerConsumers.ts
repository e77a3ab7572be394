// The consumers that put rows on the timer table. They run in the workflows' group of the consumer
// runtime (server/runtime.ts), each scheduling in the same transaction as its checkpoint.
import type { Environment } from '../../domain/shared/environment.js'
import type { SandboxDelayOverrides } from '../../domain/rails/index.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { transferRailsScheduling } from '../transfers/railsScheduling.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import { externalWalletReviewScheduling } from '../external-wallets/reviewScheduling.js'
import { retentionErasureScheduling } from '../customers/retentionErasure.js'
import { verificationExpiryScheduling } from '../customers/verificationExpiry.js'
import { fxQuoteExpiryScheduling } from '../fx-quotes/quoteExpiry.js'
import { fxTradeScheduling } from '../fx-trades/tradeTimers.js'
import { transferDraftScheduling } from '../transfer-drafts/draftTimers.js'
import { invoiceOverdueScheduling } from '../invoices/invoiceOverdue.js'
import { agentApprovalExpiryScheduling } from '../transfers/agentApprovalExpiry.js'
import type { SchedulerDatabase } from './schema.js'

/** What the timers depend on in the configuration (and the command runtime, for the transfers' state). */
export type TimerSettings = {
  customerDataRetentionDays: number
  environment: Environment
  commands: Commands
  railDelays: SandboxDelayOverrides
}

export const timerConsumers = (settings: TimerSettings): readonly Consumer<SchedulerDatabase>[] => [
  verificationExpiryScheduling,
  fxQuoteExpiryScheduling,
  fxTradeScheduling(settings.railDelays),
  transferDraftScheduling,
  invoiceOverdueScheduling,
  agentApprovalExpiryScheduling,
  retentionErasureScheduling(settings.customerDataRetentionDays),
  externalWalletReviewScheduling(settings.environment),
  transferRailsScheduling({ environment: settings.environment, commands: settings.commands, delays: settings.railDelays }),
]
