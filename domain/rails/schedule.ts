// A rail's schedule seen from one instant: the next submission cut-off strictly after it (on a
// business day of the rail's calendar, in the rail's zone) and when a submission made now settles
// in the real world. luxon does the zone arithmetic: it turns a local wall-clock time on a local
// date into an instant with the zone's offset on that date, so DST weeks need no special case.
// Days are walked as ISO dates (plain calendar arithmetic) and each local time's instant is
// memoized, so a call costs one zone conversion once the cache is warm.
import { DateTime } from 'luxon'
import { isBusinessDay } from './businessCalendars.js'
import { type CutoffWindow, type LocalTime, type RailFacts, type SandboxRail, railFacts } from './railCatalog.js'

export const RAIL_SCHEDULE_LIMITS = {
  /** Days searched for an open business day; no calendar closes for more than a few in a row. */
  maxLookaheadDays: 31,
  /** Memoized local-time instants kept before the memo is emptied (a few years of every rail's times). */
  maxMemoizedInstants: 50_000,
} as const

export type RailSchedule = {
  /** The IANA zone the cut-off is set in; null for a rail without cut-offs (24/7 instant). */
  cutoffTimezone: string | null
  /** ISO 8601 UTC instant; null for a rail without cut-offs. */
  nextCutoffAt: string | null
  /** ISO 8601 UTC instant: the real-world estimate for a submission at `now`. */
  estimatedSettlementAt: string
}

export type RailScheduleOptions = {
  /** The currency moved: picks SWIFT's settlement system (USD when omitted). */
  currency?: string
}

const DAY_MS = 86_400_000
const iso = (millis: number): string => new Date(millis).toISOString()

/** The ISO date `days` after `isoDate`: calendar arithmetic, no zone involved. */
const addDays = (isoDate: string, days: number): string =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)

const instants = new Map<string, number>()

/** The instant of wall-clock `time` on local date `isoDate` in `zone`. */
function localInstant(zone: string, isoDate: string, time: LocalTime): number {
  const key = `${zone}|${isoDate}|${time.hour}:${time.minute}`
  let millis = instants.get(key)
  if (millis === undefined) {
    const [year, month, day] = isoDate.split('-').map(Number)
    millis = DateTime.fromObject({ year, month, day, hour: time.hour, minute: time.minute }, { zone }).toMillis()
    if (instants.size >= RAIL_SCHEDULE_LIMITS.maxMemoizedInstants) instants.clear()
    instants.set(key, millis)
  }
  return millis
}

const MIDNIGHT: LocalTime = { hour: 0, minute: 0 }
const localDays = new Map<string, { day: string; from: number; until: number }>()

/**
 * The local date of `now` in `zone`. A zone conversion is the costliest step of a schedule, so the
 * day found is kept with the instants it spans (its local midnight to the next) and reused inside them.
 */
export function localDateOf(zone: string, now: number): string {
  const kept = localDays.get(zone)
  if (kept && kept.from <= now && now < kept.until) return kept.day
  const day = DateTime.fromMillis(now, { zone }).toISODate()
  if (!day) throw new RangeError(`cannot place ${iso(now)} in ${zone}`)
  localDays.set(zone, { day, from: localInstant(zone, day, MIDNIGHT), until: localInstant(zone, addDays(day, 1), MIDNIGHT) })
  return day
}

type NextCutoff = { day: string; window: CutoffWindow; cutoffAt: number }

/** The first cut-off after `now` on a business day: each day from today's local date, each window in order. */
function nextCutoff(facts: RailFacts, now: number): NextCutoff {
  const today = localDateOf(facts.timeZone, now)
  for (let offset = 0; offset <= RAIL_SCHEDULE_LIMITS.maxLookaheadDays; offset++) {
    const day = addDays(today, offset)
    if (!isBusinessDay(facts.calendar, day)) continue
    for (const window of facts.windows) {
      const cutoffAt = localInstant(facts.timeZone, day, window.cutoff)
      if (cutoffAt > now) return { day, window, cutoffAt }
    }
  }
  throw new RangeError(`no business day within ${RAIL_SCHEDULE_LIMITS.maxLookaheadDays} days in calendar ${facts.calendar}`)
}

function addBusinessDays(facts: RailFacts, day: string, count: number): string {
  let current = day
  for (let found = 0, step = 0; found < count;) {
    if (++step > RAIL_SCHEDULE_LIMITS.maxLookaheadDays) throw new RangeError(`no business day found in calendar ${facts.calendar}`)
    current = addDays(current, 1)
    if (isBusinessDay(facts.calendar, current)) found++
  }
  return current
}

function settlementAt(facts: RailFacts, next: NextCutoff, now: number): number {
  const { settlement } = next.window
  if (settlement.kind === 'BUSINESS_DAYS_AFTER') {
    return Math.max(now, localInstant(facts.timeZone, addBusinessDays(facts, next.day, settlement.businessDays), settlement.at))
  }
  // RTGS: settles on submission once the business day has opened, else at its opening.
  if (!facts.opens) return now
  const openingDay = facts.opens.previousDay ? addDays(next.day, -1) : next.day
  return Math.max(now, localInstant(facts.timeZone, openingDay, facts.opens.at))
}

/** The rail's next cut-off after `now` and the estimated settlement of a submission at `now`. */
export function railSchedule(rail: SandboxRail, now: Date, options: RailScheduleOptions = {}): RailSchedule {
  const millis = now.getTime()
  if (Number.isNaN(millis)) throw new RangeError('railSchedule needs a valid date')
  const facts = railFacts(rail, options.currency)
  if (facts.windows.length === 0) return { cutoffTimezone: null, nextCutoffAt: null, estimatedSettlementAt: iso(millis) }
  const next = nextCutoff(facts, millis)
  return { cutoffTimezone: facts.timeZone, nextCutoffAt: iso(next.cutoffAt), estimatedSettlementAt: iso(settlementAt(facts, next, millis)) }
}
