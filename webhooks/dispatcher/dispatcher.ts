// The dispatcher: claims due deliveries (leased, so several processes can run one each), runs up
// to maxInFlight attempts at once, and sleeps until woken (new deliveries in this process, a slot
// freed) or the poll interval passes (due retries, work queued by other processes). Background
// recover requests run here too.
import type { Kysely } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import type { Environment } from '../../domain/shared/environment.js'
import type { Resolver } from '../egress/resolveTarget.js'
import type { DispatcherTuning } from '../limits.js'
import { processRecoveries } from '../messages/processRecoveries.js'
import { type ClaimedDelivery, claimDeliveries } from './claimDeliveries.js'
import { deliverOne } from './deliverOne.js'
import { type Outcome, createOutcomeRecorder } from './recordOutcome.js'
import type { RetrySchedule } from './retrySchedule.js'
import type { Commands } from '../../commands/runtime/commandRuntime.js'

const ERROR_BACKOFF_MAX_MS = 5_000

export type Dispatcher = ReturnType<typeof createDispatcher>

export function createDispatcher(deps: {
  db: Kysely<ReadDatabase>
  commands: Commands
  protection: DataProtection
  environment: Environment
  schedule: RetrySchedule
  tuning: DispatcherTuning
  resolver?: Resolver
  onError: (error: unknown, message: string) => void
  /** Each delivery attempt's outcome once recorded: SUCCEEDED, FAILED for good, or PENDING again (a retry). */
  onOutcome?: (status: Outcome['next']['status']) => void
}) {
  const { tuning } = deps
  const recorder = createOutcomeRecorder(deps.db, (outcome) => deps.onOutcome?.(outcome.next.status))
  const inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>()
  let running = false
  let loop: Promise<void> | undefined
  let wakeUp: (() => void) | undefined
  let woken = false

  const wake = () => {
    woken = true
    wakeUp?.()
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) return resolve()
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        wakeUp = undefined
        resolve()
      }
      wakeUp = done
    })

  function launch(d: ClaimedDelivery): void {
    const key = `${d.messageId} ${d.endpointId}`
    const abort = new AbortController()
    const done = deliverOne({ ...deps, requestTimeoutMs: tuning.requestTimeoutMs, resolver: deps.resolver, recorder }, d, abort.signal)
      .catch((error: unknown) =>
        deps.onError(error, `webhook delivery ${key} failed to record; its lease will run out and it is sent again`),
      )
      .finally(() => {
        inFlight.delete(key)
        wake()
      })
    inFlight.set(key, { abort, done })
  }

  async function run(): Promise<void> {
    let errorBackoffMs = 50
    let lastRecoveryCheck = 0
    while (running) {
      woken = false
      try {
        const room = tuning.maxInFlight - inFlight.size
        const claimed = await claimDeliveries(deps.db, { room, perEndpoint: tuning.perEndpointConcurrency, leaseMs: tuning.leaseMs })
        for (const d of claimed) launch(d)
        if (Date.now() - lastRecoveryCheck >= tuning.pollIntervalMs) {
          lastRecoveryCheck = Date.now()
          if ((await processRecoveries(deps.db)) > 0) continue
        }
        errorBackoffMs = 50
        // A full claim means more may be due: go again while there is room.
        if (claimed.length > 0 && claimed.length === room) continue
        await sleep(tuning.pollIntervalMs)
      } catch (error) {
        if (!running) break
        deps.onError(error, 'webhook dispatcher loop failed; retrying')
        await sleep(errorBackoffMs)
        errorBackoffMs = Math.min(errorBackoffMs * 2, ERROR_BACKOFF_MAX_MS)
      }
    }
  }

  return {
    /** Something became due in this process (new deliveries, a resend): claim now. */
    wake,
    inFlight: () => inFlight.size,

    start(): void {
      if (running) return
      running = true
      loop = run()
    },

    /** Stops claiming, lets attempts in flight finish for up to stopGraceMs, then aborts the rest. */
    async stop(): Promise<void> {
      if (!running) return
      running = false
      wake()
      await loop
      const pending = [...inFlight.values()]
      const grace = new Promise<void>((resolve) => setTimeout(resolve, tuning.stopGraceMs).unref())
      await Promise.race([Promise.all(pending.map((p) => p.done)), grace])
      for (const p of inFlight.values()) p.abort.abort()
      await Promise.all([...inFlight.values()].map((p) => p.done))
    },
  }
}
