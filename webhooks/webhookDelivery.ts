// Webhook delivery as one object the process owns: the subscriber (events -> messages) and the
// dispatcher (messages -> HTTP). Created with the runtime, started by the server (or a test, or a
// dispatcher-only process) with the parts it wants. Retention is a background job (server/backgroundJobs.ts).
import type { Kysely } from 'kysely'
import type { PublicEventMappers } from '../domain/publicEvents.js'
import type { EventStore, Position } from '../events/store/port.js'
import type { ConsumerBackoff, ConsumerLog } from '../events/consumers/consumerGuard.js'
import type { ReadDatabase } from '../projections/schema.js'
import type { DataProtection } from '../events/protection/dataProtection.js'
import { type Dispatcher, createDispatcher } from './dispatcher/dispatcher.js'
import { type RetrySchedule, assertRetrySchedule } from './dispatcher/retrySchedule.js'
import type { Environment } from '../domain/shared/environment.js'
import type { Resolver } from './egress/resolveTarget.js'
import { type DispatcherTuning, dispatcherTuning } from './limits.js'
import { publicEventLookupOf, publicEventMappers, registeredPublicEventMappers } from './publicEventMappers.js'
import { type WebhookSubscriber, createWebhookSubscriber } from './subscriber/subscriber.js'
import type { Commands } from '../commands/runtime/commandRuntime.js'

export type WebhookStartOptions = {
  subscriber?: boolean
  dispatcher?: boolean
  tuning?: Partial<DispatcherTuning>
  /** Replaces DNS for egress checks (tests of hosts that resolve to private addresses). */
  resolver?: Resolver
  /** Mappers by stored type beside the registered ones (tests of fan-out without a domain that emits public events). */
  extraMappers?: readonly PublicEventMappers[]
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>

export function createWebhookDelivery(deps: {
  db: Kysely<ReadDatabase>
  store: EventStore
  /** Where the dispatcher's commands run (a 410 disables an endpoint). */
  commands: Commands
  environment: Environment
  retryScheduleMs: RetrySchedule
  onError: (error: unknown, message: string) => void
  /** The subscriber's failure lines (one per back-off) and its back-off limits. */
  log: ConsumerLog
  consumerBackoff?: Partial<ConsumerBackoff>
  /** Seals the endpoint snapshots' signing secrets; the dispatcher opens them to sign. */
  protection: DataProtection
  /** Each delivery outcome the dispatcher records (the metrics' counter). */
  onDeliveryOutcome?: (status: 'SUCCEEDED' | 'FAILED' | 'PENDING') => void
}) {
  assertRetrySchedule(deps.retryScheduleMs)
  let subscriber: WebhookSubscriber | undefined
  let dispatcher: Dispatcher | undefined
  const newSubscriber = (extraMappers: readonly PublicEventMappers[]) =>
    createWebhookSubscriber({
      db: deps.db,
      store: deps.store,
      // Extra mappers join the registered ones in one lookup, which refuses a type mapped twice.
      mappers: extraMappers.length === 0 ? publicEventMappers : publicEventLookupOf([...registeredPublicEventMappers, ...extraMappers]),
      schedule: deps.retryScheduleMs,
      protection: deps.protection,
      onDeliveries: () => dispatcher?.wake(),
      onError: deps.onError,
      log: deps.log,
      backoff: deps.consumerBackoff,
    })

  return {
    /** Starts the parts asked for (both by default). */
    async start(options: WebhookStartOptions = {}): Promise<void> {
      if (options.dispatcher ?? true) {
        dispatcher = createDispatcher({
          db: deps.db,
          commands: deps.commands,
          protection: deps.protection,
          environment: deps.environment,
          schedule: deps.retryScheduleMs,
          tuning: dispatcherTuning(options.tuning),
          ...(options.resolver ? { resolver: options.resolver } : {}),
          onError: deps.onError,
          ...(deps.onDeliveryOutcome ? { onOutcome: deps.onDeliveryOutcome } : {}),
        })
        dispatcher.start()
      }
      if (options.subscriber ?? true) {
        subscriber = newSubscriber(options.extraMappers ?? [])
        await subscriber.start()
      }
    },

    /** Replays the subscriber's dead letters: with the one running here, or one made for it (the CLI starts none). */
    replayParked: (...args: Parameters<WebhookSubscriber['replayParked']>) => (subscriber ?? newSubscriber([])).replayParked(...args),

    /** Resolves true once the messages of events up to `position` exist (false when no subscriber runs here). */
    waitForMessages: (position: Position | undefined, timeoutMs: number): Promise<boolean> =>
      subscriber ? subscriber.waitFor(position, timeoutMs) : Promise.resolve(false),

    /** Work was queued (resend, recover): a dispatcher in this process claims it at once. */
    wakeDispatcher: (): void => dispatcher?.wake(),

    async stop(): Promise<void> {
      await subscriber?.stop()
      await dispatcher?.stop()
      subscriber = undefined
      dispatcher = undefined
    },
  }
}
