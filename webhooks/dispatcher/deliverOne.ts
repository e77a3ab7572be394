// One attempt of one claimed delivery: check the endpoint and the egress policy, sign afresh,
// POST, decide the next step (done, retry after the schedule's delay, failed for good), record.
import type { Kysely } from 'kysely'
import { validSecrets } from '../../domain/webhook-endpoint/decider.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import { sealedEndpointSecrets } from '../../projections/sealedColumns.js'
import type { Environment } from '../../domain/shared/environment.js'
import { postDelivery, type PostOutcome } from '../egress/postDelivery.js'
import { type Resolver, resolveTarget } from '../egress/resolveTarget.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import { signDelivery } from '../signing/signDelivery.js'
import type { ClaimedDelivery } from './claimDeliveries.js'
import { disableGoneEndpoint } from './disableGoneEndpoint.js'
import type { AttemptRecord, NextStep, OutcomeRecorder } from './recordOutcome.js'
import { type RetrySchedule, nextDelayMs } from './retrySchedule.js'
import type { Commands } from '../../commands/runtime/commandRuntime.js'

export const USER_AGENT = 'payments-webhooks/1.0'

/** Logged, never thrown: what the egress policy refused, with the endpoint, kept out of the attempt. */
export class EgressRefused extends Error {
  override readonly name = 'EgressRefused'
  constructor(
    detail: string,
    readonly endpointId: string,
    readonly messageId: string,
  ) {
    super(detail)
  }
}

export type DeliverDeps = {
  db: Kysely<ReadDatabase>
  commands: Commands
  /** Opens the endpoint's sealed signing secrets, just before signing. */
  protection: DataProtection
  environment: Environment
  schedule: RetrySchedule
  requestTimeoutMs: number
  resolver: Resolver | undefined
  recorder: OutcomeRecorder
  onError: (error: unknown, message: string) => void
}

function nextStepAfter(outcome: Pick<PostOutcome, 'status' | 'aborted'>, d: ClaimedDelivery, schedule: RetrySchedule): NextStep {
  if (outcome.status >= 200 && outcome.status < 300) return { status: 'SUCCEEDED' }
  if (outcome.status === 410) return { status: 'FAILED' }
  // Stopping is not the receiver's fault: send again at once, from whichever dispatcher is up.
  if (outcome.aborted) return { status: 'PENDING', delayMs: 0 }
  const delayMs = nextDelayMs(schedule, d.runAttempts + 1)
  return delayMs === undefined ? { status: 'FAILED' } : { status: 'PENDING', delayMs }
}

export async function deliverOne(deps: DeliverDeps, d: ClaimedDelivery, signal: AbortSignal): Promise<void> {
  const endpoint = d.endpoint
  if (endpoint.status !== 'active' || endpoint.disabled) {
    const reason = endpoint.status === 'active' ? 'endpoint disabled' : 'endpoint deleted'
    return record(deps, d, undefined, { status: 'FAILED' }, reason)
  }
  const attemptedAt = new Date()
  // One deadline for the whole attempt: lookup, connect, response.
  const deadline = attemptedAt.getTime() + deps.requestTimeoutMs
  const decision = await resolveTarget(endpoint.url, deps.environment, deps.resolver, deps.requestTimeoutMs)
  let outcome: PostOutcome
  if (!decision.ok) {
    if (decision.detail)
      deps.onError(
        new EgressRefused(decision.detail, d.endpointId, d.messageId),
        `webhook attempt to endpoint ${d.endpointId} refused by the egress policy`,
      )
    outcome = { status: 0, body: '', error: decision.reason, durationMs: Date.now() - attemptedAt.getTime(), aborted: false }
  } else {
    const secrets = await sealedEndpointSecrets.open(deps.protection, d.endpointId, endpoint.secrets, endpoint.organizationId)
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signDelivery(d.messageId, d.body, validSecrets(secrets, attemptedAt), attemptedAt),
    }
    outcome = await postDelivery(decision.target, headers, d.body, {
      timeoutMs: Math.max(1, deadline - Date.now()),
      maxBodyBytes: WEBHOOK_LIMITS.responseBodyMaxBytes,
      signal,
    })
  }
  const next = nextStepAfter(outcome, d, deps.schedule)
  const gone = outcome.status === 410
  // Before the record, so a crash between them repeats the attempt and the command (with the same id) rather than lose the disable.
  if (gone) {
    const { organizationId, endpointId, messageId, generation } = d
    await disableGoneEndpoint(deps.commands, { organizationId, endpointId, messageId, generation, environment: deps.environment })
  }
  await record(
    deps,
    d,
    { url: endpoint.url, attemptedAt, status: outcome.status, body: outcome.body, error: outcome.error, durationMs: outcome.durationMs },
    next,
    gone ? 'receiver answered 410 Gone; endpoint disabled' : undefined,
  )
}

/** Retries recording while the database is briefly away; past that the lease runs out and the delivery is sent again. */
async function record(
  deps: DeliverDeps,
  d: ClaimedDelivery,
  attempt: AttemptRecord | undefined,
  next: NextStep,
  reason?: string,
): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      return await deps.recorder.record({ delivery: d, attempt, next, ...(reason !== undefined ? { reason } : {}) })
    } catch (error) {
      if (tries >= WEBHOOK_LIMITS.recordMaxTries) throw error
      deps.onError(error, 'recording a webhook attempt failed; retrying')
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** tries))
    }
  }
}
