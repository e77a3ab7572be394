// Calendar-date rules on plain `YYYY-MM-DD` strings. Everything is computed in UTC so
// the answer never depends on the server's time zone.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DAY_MS = 86_400_000

/** Days in a month of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

/** Parsed parts of a valid ISO date, or undefined. Year 0000 is refused (not a real year). */
export function parseIsoDate(value: string): { year: number; month: number; day: number } | undefined {
  const m = ISO_DATE.exec(value)
  if (!m) return undefined
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined
  return { year, month, day }
}

/** Exactly YYYY-MM-DD and a real calendar date (2026-02-30, 2025-02-29, 2024-13-01 refused). */
export function isIsoDate(value: string): boolean {
  return parseIsoDate(value) !== undefined
}

/** Whole-day number (days since 1970-01-01) of a date in UTC. */
function utcDayNumber(year: number, month: number, day: number): number {
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear avoids that quirk.
  const d = new Date(0)
  d.setUTCFullYear(year, month - 1, day)
  return Math.round(d.getTime() / DAY_MS)
}

/**
 * True when `date` is a valid ISO date, not after `now`'s UTC date, and at most `days`
 * days before it (so `days` = 90 accepts exactly 90 days ago, refuses 91).
 */
export function isWithinDays(date: string, now: Date, days: number): boolean {
  const p = parseIsoDate(date)
  if (!p || Number.isNaN(now.getTime())) return false
  const today = utcDayNumber(now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate())
  const diff = today - utcDayNumber(p.year, p.month, p.day)
  return diff >= 0 && diff <= days
}

/**
 * Completed years between `dateOfBirth` and `now`'s UTC date. A 29 February birthday
 * turns a year older on 1 March in common years (the birthday has not come on 28 Feb).
 * Returns NaN for an invalid date; negative when the birth date is in the future.
 */
export function ageInYears(dateOfBirth: string, now: Date): number {
  const p = parseIsoDate(dateOfBirth)
  if (!p || Number.isNaN(now.getTime())) return Number.NaN
  const y = now.getUTCFullYear()
  const m = now.getUTCMonth() + 1
  const d = now.getUTCDate()
  let age = y - p.year
  if (m < p.month || (m === p.month && d < p.day)) age -= 1
  return age
}
