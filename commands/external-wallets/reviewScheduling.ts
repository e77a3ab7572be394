// External wallets are reviewed on the scheduler: a consumer of AccountOpened puts the review of
// each wallet opened IN_REVIEW on the timer table, due EXTERNAL_WALLET_REVIEW_LIMITS.reviewDelayMs
// after its opening, in the same transaction as its checkpoint. So a process that dies right after
// the append loses no review, and a replay schedules none twice (the row id is the account's).
import type { Kysely } from 'kysely'
import { AccountOpened } from '../../domain/account/events.js'
import { EXTERNAL_WALLET_REVIEW_LIMITS } from '../../domain/account/externalWalletReview.js'
import type { Environment } from '../../domain/shared/environment.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'
import { streams } from '../../events/streams.js'
import { scheduleCommand } from '../scheduler/scheduleCommand.js'
import type { SchedulerDatabase } from '../scheduler/schema.js'

/** The timer's id, and so the review command's commandId: one per wallet, forever. */
export const reviewTimerId = (accountId: string) => `external-wallet-review:${accountId}`

export const externalWalletReviewScheduling = (environment: Environment): Consumer<SchedulerDatabase> => ({
  name: 'external_wallet_review_timers',
  handles: new Set(['AccountOpened']),
  async apply(trx: Kysely<SchedulerDatabase>, events) {
    for (const event of events) {
      const opened = AccountOpened.parse(event.data)
      if (opened.details.kind !== 'EXTERNAL_WALLET' || opened.status !== 'IN_REVIEW') continue
      const organizationId = organizationOfEvent(event)
      await scheduleCommand(trx, {
        id: reviewTimerId(opened.accountId),
        organizationId,
        aggregate: 'account',
        stream: streams.account(opened.accountId),
        command: { type: 'ReviewExternalWallet', organizationId, accountId: opened.accountId, environment },
        dueAt: new Date(Date.parse(opened.at) + EXTERNAL_WALLET_REVIEW_LIMITS.reviewDelayMs),
      })
    }
  },
})
