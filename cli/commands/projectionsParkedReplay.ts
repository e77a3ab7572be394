// `projections parked replay <eventId> | --all [--consumer <name>] [--yes] [--actor <who>]`: applies
// dead letters again, once what made them fail is fixed. One event id replays its stream for each
// consumer it is parked for (every letter of that stream, in order: a later one never goes first);
// --all replays every parked stream (of one group or consumer). It shows what it will replay and asks
// for a "yes" on the terminal (--yes for scripts). A replay stops at a letter that fails again: that
// one stays parked with one attempt more, and so do the letters behind it; the command then exits 1
// (as when letters are left because live events kept coming through every round).
// Each replay leaves an audit row (who, which letters, what failed) and a log line. A letter whose
// event an operator skipped (`projections skip`) is passed over. Safe beside a running server
// (events/consumers/replayParked.ts says why).
import { parseArgs } from 'node:util'
import { WORKFLOWS_CONSUMER } from '../../commands/workflows/workflowRunner.js'
import type { ReplaySelection } from '../../events/consumers/consumerRuntime.js'
import { type DeadLetter, listDeadLetters } from '../../events/consumers/deadLetters.js'
import { REPLAY_AUDIT_LIMITS } from '../../events/consumers/parkedReplays.js'
import type { ReplayOutcome } from '../../events/consumers/replayParked.js'
import { PROJECTIONS_CONSUMER } from '../../projections/runtime/projectionRunner.js'
import { CONSUMER_NAMES, type Runtime } from '../../server/runtime.js'
import { SUBSCRIBER_CHECKPOINT } from '../../webhooks/subscriber/storeBatch.js'
import { auditText } from '../auditText.js'
import { cliActor } from '../cliRuntime.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { confirmed } from '../confirm.js'
import { isEventId } from '../eventId.js'
import { CliError } from '../output.js'
import { PARKED_LIST_LIMITS, letterFilter } from './projectionsParked.js'

type Replayer = (selection: ReplaySelection, actor: string) => Promise<ReplayOutcome[]>

/** The group that runs a consumer group's consumers in this process (none is started: they replay only). */
function replayerOf(runtime: Runtime, group: string): Replayer {
  if (group === PROJECTIONS_CONSUMER) return runtime.runner.projections.replayParked
  if (group === WORKFLOWS_CONSUMER) return runtime.runner.workflows.replayParked
  if (group === SUBSCRIBER_CHECKPOINT) return runtime.webhooks.replayParked
  throw new CliError('unknown_consumer_group', `dead letters of group ${JSON.stringify(group)}, which this version does not run`, { group })
}

type Plan = { group: string; consumer: string; stream: string; letters: number; first: string }[]

function planOf(letters: readonly DeadLetter[]): Plan {
  const plan = new Map<string, Plan[number]>()
  for (const l of letters) {
    const key = `${l.group}\u0000${l.consumer}\u0000${l.stream}`
    const entry = plan.get(key) ?? { group: l.group, consumer: l.consumer, stream: l.stream, letters: 0, first: l.eventId }
    entry.letters += 1
    plan.set(key, entry)
  }
  return [...plan.values()]
}

const describePlan = (plan: Plan): string =>
  [
    `This replays ${plan.reduce((n, p) => n + p.letters, 0)} dead letter(s) on ${plan.length} stream(s):`,
    ...plan.map((p) => `  ${p.group} / ${p.consumer}: ${p.stream} (${p.letters} letter(s), from event ${p.first})`),
  ].join('\n')

export const projectionsParkedReplay: CliCommand = {
  words: ['projections', 'parked', 'replay'],
  usage: 'projections parked replay (<eventId> | --all [--consumer <group or consumer>]) [--yes] [--actor <who>]',
  summary: 'apply parked streams again, in order, after a fix (asks for confirmation; --yes for scripts)',
  parse(argv) {
    const { values, positionals } = parseOrUsage(projectionsParkedReplay, () =>
      parseArgs({
        args: argv,
        options: { all: { type: 'boolean' }, consumer: { type: 'string' }, yes: { type: 'boolean' }, actor: { type: 'string' } },
        strict: true,
        allowPositionals: true,
      }),
    )
    const all = values.all === true
    if (all === positionals.length > 0 || positionals.length > 1) {
      throw usageError(projectionsParkedReplay, 'give one event id (see `projections parked`), or --all')
    }
    const eventId = positionals[0]?.toLowerCase()
    if (eventId !== undefined && !isEventId(eventId)) throw usageError(projectionsParkedReplay, 'the event id must be a UUID')
    if (values.consumer !== undefined && !all) throw usageError(projectionsParkedReplay, '--consumer goes with --all')
    const consumer = auditText(projectionsParkedReplay, 'consumer', values.consumer, PARKED_LIST_LIMITS.maxNameLength)
    const actor = auditText(projectionsParkedReplay, 'actor', values.actor, REPLAY_AUDIT_LIMITS.maxActorLength) ?? cliActor()

    return async ({ runtime, out, log }) => {
      const letters = await listDeadLetters(runtime.db, eventId ? { eventId } : letterFilter(consumer))
      if (eventId && letters.length === 0) {
        throw new CliError('not_parked', `No dead letter of event ${eventId} (see \`projections parked\`)`, { eventId })
      }
      // An event's letter replays its whole stream for that consumer: show all of it.
      const streams = eventId
        ? await Promise.all(letters.map((l) => listDeadLetters(runtime.db, { consumer: l.consumer, stream: l.stream })))
        : []
      const plan = planOf(eventId ? streams.flat() : letters)
      if (plan.length > 0 && values.yes !== true && !(await confirmed(describePlan(plan)))) {
        throw new CliError('not_confirmed', 'Nothing replayed: not confirmed (answer yes, or pass --yes)', { plan })
      }
      const outcomes: ReplayOutcome[] = []
      for (const group of CONSUMER_NAMES.filter((name) => plan.some((p) => p.group === name))) {
        const filter = letterFilter(consumer)
        const selection: ReplaySelection = eventId ? { eventId } : { all: true, ...(filter.consumer ? { consumer: filter.consumer } : {}) }
        outcomes.push(...(await replayerOf(runtime, group)(selection, actor)))
      }
      for (const o of outcomes) {
        const fields = {
          group: o.group,
          consumer: o.consumer,
          stream: o.stream,
          replayed: o.replayed.length,
          skipped: o.skipped.length,
          actor,
        }
        if (o.failed)
          log.warn(
            { ...fields, failedEventId: o.failed.eventId, error: o.failed.error },
            'parked stream replay stopped: a letter failed again',
          )
        else log.warn(fields, 'parked stream replayed')
      }
      await out.document({ actor, outcomes })
      const failed = outcomes.filter((o) => o.failed)
      // Letters left without a failure: live events kept arriving through every round (REPLAY_LIMITS.maxRounds); run it again.
      const unfinished = outcomes.filter((o) => !o.failed && o.remaining > 0)
      if (failed.length > 0 || unfinished.length > 0) {
        throw new CliError(
          'replay_incomplete',
          `${failed.length + unfinished.length} stream(s) still parked: a letter failed again, or more came`,
          {
            failed: failed.map((o) => ({ consumer: o.consumer, stream: o.stream, ...o.failed })),
            unfinished: unfinished.map((o) => ({ consumer: o.consumer, stream: o.stream, remaining: o.remaining })),
          },
        )
      }
    }
  },
}
