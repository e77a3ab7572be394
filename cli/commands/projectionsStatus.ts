// `projections status [--json]`: each projector's, workflow's, timer consumer's and the webhook
// subscriber's checkpoint and lag (events it handles and has not handled, how old the oldest is,
// stalled or not: events/consumers/consumerLag.ts, the same figures as /health), the head's
// staleness, each consumer group's health (failing since, attempts, last error, the event it is
// stuck on; its dead letters, with the oldest few), and the operator's skips. Lag counts only
// events a consumer handles and has not been told to skip, so a caught-up system shows 0 (a parked
// event lies behind the checkpoint: a letter, not lag). Plain lines for a person by default; one
// JSON document with --json. Read-only: it runs no consumer, so it shows what the server's have.
import { parseArgs } from 'node:util'
import type { ConsumerLag, LagReport } from '../../events/consumers/consumerLag.js'
import { measureConsumerLag } from '../../events/consumers/consumerLag.js'
import { type ConsumerFailure, listFailures, listSkips } from '../../events/consumers/consumerRecords.js'
import { countDeadLetters } from '../../events/consumers/deadLetters.js'
import { type ParkedGroupSummary, summarizeParked } from '../../events/consumers/parkedSummary.js'
import { PROJECTIONS_CONSUMER } from '../../projections/runtime/projectionRunner.js'
import { WORKFLOWS_CONSUMER } from '../../commands/workflows/workflowRunner.js'
import { toLagJson } from '../../server/observability/lagJson.js'
import { lagTargets } from '../../server/observability/lagTargets.js'
import { CONSUMER_NAMES } from '../../server/runtime.js'
import { SUBSCRIBER_CHECKPOINT } from '../../webhooks/subscriber/storeBatch.js'
import { type CliCommand, parseOrUsage } from '../command.js'

export const STATUS_LIMITS = {
  /** Event marks read past the checkpoints; beyond it the lags are lower bounds (and say so). */
  maxScannedEvents: 1_000_000,
} as const

type GroupStatus = { name: string; status: 'ok' | 'parked' | 'failing'; failure?: ConsumerFailure; parked?: number; parkedFailed?: number }

const seconds = (s: number) => `${s.toFixed(1)} s`
const pad = (text: string, width: number) => text.padEnd(width)

function consumerLine(c: ConsumerLag): string {
  const lag = `${c.lagIsLowerBound ? '>=' : ''}${c.lagEvents}`
  const moved = c.checkpointMovedAt ? c.checkpointMovedAt.toISOString() : 'never'
  const stalled = c.stalled ? 'STALLED' : 'no'
  return `  ${pad(c.name, 34)} ${pad(c.group, 17)} ${pad(lag, 10)} ${pad(seconds(c.lagSeconds), 12)} ${pad(stalled, 8)} ${moved}`
}

function groupLine(g: GroupStatus): string {
  const letters = g.parked ? `; ${g.parked} dead letters (${g.parkedFailed ?? 0} failed)` : ''
  if (!g.failure) return `  ${g.name}: ${g.status}${letters}`
  const f = g.failure
  return (
    `  ${g.name}: FAILING since ${f.failingSince.toISOString()}, ${f.attempts} attempts on ${f.event.type} ${f.event.id}` +
    ` (next ${f.nextAttemptAt.toISOString()}): ${f.lastError}${letters}`
  )
}

function lines(report: LagReport, groups: GroupStatus[], parked: ParkedGroupSummary[], skips: number, now: Date): string[] {
  const head = report.head
    ? `head ${report.head}, recorded ${report.headRecordedAt?.toISOString()} (${seconds(report.headStalenessSeconds ?? 0)} ago)`
    : 'head: no events yet'
  const scan = report.complete
    ? `${report.scannedEvents} events read`
    : `scan stopped at ${report.scannedEvents} events: >= marks lower bounds`
  return [
    `${head}; ${scan}`,
    `  ${pad('consumer', 34)} ${pad('group', 17)} ${pad('lag', 10)} ${pad('lag age', 12)} ${pad('stalled', 8)} checkpoint moved`,
    ...report.consumers.map(consumerLine),
    'groups:',
    ...groups.map(groupLine),
    ...parked.flatMap((g) => [
      `dead letters of ${g.group} (${g.letters}; oldest ${g.oldest.length}; \`projections parked\` lists them all):`,
      ...g.oldest.map(
        (l) =>
          `  ${l.organizationId ?? '(no organization)'} ${l.stream} ${l.eventType} ${l.reason}, ` +
          `${seconds((now.getTime() - l.parkedAt.getTime()) / 1000)} old${l.error ? `: ${l.error}` : ''}`,
      ),
    ]),
    `skipped events: ${skips}`,
  ]
}

export const projectionsStatus: CliCommand = {
  words: ['projections', 'status'],
  usage: 'projections status [--json]',
  summary: "print each consumer's checkpoint, lag (events, seconds, stalled), the groups' health, dead letters and skipped events",
  parse(argv) {
    const { values } = parseOrUsage(projectionsStatus, () =>
      parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: false }),
    )
    return async ({ runtime, out }) => {
      const now = new Date()
      const report = await measureConsumerLag({ store: runtime.store, db: runtime.db, now }, lagTargets(runtime), {
        maxScannedEvents: STATUS_LIMITS.maxScannedEvents,
      })
      const [skips, failures, parked, parkedGroups] = await Promise.all([
        listSkips(runtime.db),
        listFailures(runtime.db),
        countDeadLetters(runtime.db),
        summarizeParked(runtime.db),
      ])
      // A group's letters and how many of them failed, shown only when it has some (as a failure's fields only while failing).
      const parkedOf = (group: string) => {
        const mine = parked.filter((p) => p.group === group)
        if (mine.length === 0) return {}
        return { parked: mine.reduce((n, p) => n + p.letters, 0), parkedFailed: mine.reduce((n, p) => n + p.failed, 0) }
      }
      const groups: GroupStatus[] = CONSUMER_NAMES.map((name) => {
        const failure = failures.find((f) => f.consumer === name)
        const status = failure ? 'failing' : parked.some((p) => p.group === name) ? 'parked' : 'ok'
        return { name, status, ...(failure ? { failure } : {}), ...parkedOf(name) }
      })
      if (!values.json) {
        for (const line of lines(report, groups, parkedGroups, skips.length, now)) await out.text(line)
        return
      }
      const lag = toLagJson(report)
      const ofGroup = (group: string) => lag.consumers.filter((c) => c.group === group)
      await out.document({
        head: lag.head,
        headRecordedAt: lag.headRecordedAt,
        headStalenessSeconds: lag.headStalenessSeconds,
        projectionMode: runtime.projectionMode,
        // False when the scan stopped at its bound: the lags marked lagIsLowerBound are minimums.
        complete: lag.complete,
        scannedEvents: lag.scannedEvents,
        projections: ofGroup(PROJECTIONS_CONSUMER),
        workflows: ofGroup(WORKFLOWS_CONSUMER),
        webhookSubscriber: ofGroup(SUBSCRIBER_CHECKPOINT)[0],
        consumers: groups.map(({ failure, ...g }) => ({
          ...g,
          ...(failure
            ? {
                failingSince: failure.failingSince.toISOString(),
                attempts: failure.attempts,
                lastError: failure.lastError,
                event: failure.event,
                nextAttemptAt: failure.nextAttemptAt.toISOString(),
                updatedAt: failure.updatedAt.toISOString(),
              }
            : {}),
        })),
        // Dead letters per consumer (`projections parked` lists them, `projections parked replay` applies them).
        parked,
        // The oldest letters of each group, with their tenant, stream and error.
        parkedLetters: parkedGroups.map((g) => ({
          group: g.group,
          letters: g.letters,
          oldest: g.oldest.map((l) => ({
            ...l,
            parkedAt: l.parkedAt.toISOString(),
            ageSeconds: (now.getTime() - l.parkedAt.getTime()) / 1000,
          })),
        })),
        skips: skips.map((s) => ({ ...s, createdAt: s.createdAt.toISOString() })),
      })
    }
  },
}
