// The business-day calendars the sandbox rails settle on: which local dates a rail's settlement
// system is open. Holidays come from date-holidays (a maintained rule set per country); each
// calendar's year is computed once, on first use, and kept as a set of ISO dates, so asking
// whether a day is open is one weekday check and one set lookup.
import Holidays, { type HolidaysTypes } from 'date-holidays'

export const BUSINESS_CALENDARS = [
  'FEDERAL_RESERVE',
  'TARGET2',
  'UK_ENGLAND_WALES',
  'MEXICO_BANKING',
  'BRAZIL_BANKING',
  /** 24/7/365 instant rails: every day is open. */
  'ALWAYS_OPEN',
] as const
export type BusinessCalendar = (typeof BUSINESS_CALENDARS)[number]

export const BUSINESS_CALENDAR_LIMITS = {
  /** Years outside this range are refused: they are typos, not settlement dates. */
  minYear: 1971,
  maxYear: 2199,
} as const

/**
 * The Federal Reserve's 11 holidays (federalreserve.gov, "Holidays Observed by the Federal Reserve
 * System"). date-holidays' US list has the same 11 as type `public`, named in English (Labor Day
 * is spelled both ways across its languages). Its substitute days are not used: the Fed closes the
 * Monday after a Sunday holiday (Veterans Day included) but stays open the Friday before a Saturday one.
 */
const FED_HOLIDAYS = [
  "New Year's Day",
  'Martin Luther King Jr. Day',
  "Washington's Birthday",
  'Memorial Day',
  'Juneteenth',
  'Independence Day',
  'Labor Day',
  'Labour Day',
  'Columbus Day',
  'Veterans Day',
  'Thanksgiving Day',
  'Christmas Day',
] as const
const isFedHoliday = (name: string): boolean => (FED_HOLIDAYS as readonly string[]).includes(name)

/** TARGET2 (T2) closing days, fixed by the ECB: New Year, Good Friday, Easter Monday, 1 May, 25 and 26 December. */
const TARGET2_RULES = ['01-01', 'easter -2', 'easter 1', '05-01', '12-25', '12-26'] as const

type HolidayList = (year: number) => HolidaysTypes.Holiday[]

const isoDateOf = (holiday: HolidaysTypes.Holiday): string => holiday.date.slice(0, 10)

/** Monday is 1, as ISO 8601 and luxon count; computed at noon UTC so no zone can move the date. */
const weekdayOfIsoDate = (isoDate: string): number => {
  const day = new Date(`${isoDate}T12:00:00Z`).getUTCDay()
  return day === 0 ? 7 : day
}

function countryHolidays(country: string, state: string | undefined, types: readonly HolidaysTypes.HolidayType[]): HolidayList {
  let holidays: Holidays | undefined
  return (year) => {
    holidays ??= state ? new Holidays(country, state, { languages: 'en' }) : new Holidays(country, { languages: 'en' })
    return holidays.getHolidays(year, 'en').filter((holiday) => types.includes(holiday.type))
  }
}

/** The Fed's holidays by name, plus the Monday after each on a Sunday (date-holidays gives Veterans Day none). */
function federalReserveHolidays(): HolidayList {
  const us = countryHolidays('US', undefined, ['public'])
  return (year) => {
    const holidays = us(year).filter((holiday) => !holiday.substitute && isFedHoliday(holiday.name))
    const mondays = holidays
      .filter((holiday) => weekdayOfIsoDate(isoDateOf(holiday)) === 7)
      .map((holiday) => {
        const monday = new Date(`${isoDateOf(holiday)}T12:00:00Z`)
        monday.setUTCDate(monday.getUTCDate() + 1)
        return { ...holiday, date: `${monday.toISOString().slice(0, 10)} 00:00:00`, substitute: true }
      })
    return [...holidays, ...mondays]
  }
}

function target2Holidays(): HolidayList {
  let holidays: Holidays | undefined
  return (year) => {
    if (!holidays) {
      holidays = new Holidays()
      for (const rule of TARGET2_RULES) holidays.setHoliday(rule, { name: `TARGET2 closed (${rule})`, type: 'public' })
    }
    return holidays.getHolidays(year)
  }
}

const HOLIDAY_SOURCES: Record<Exclude<BusinessCalendar, 'ALWAYS_OPEN'>, HolidayList> = {
  FEDERAL_RESERVE: federalReserveHolidays(),
  TARGET2: target2Holidays(),
  /** Bank holidays of England and Wales, with their substitute days (the UK rails' calendar). */
  UK_ENGLAND_WALES: countryHolidays('GB', 'ENG', ['public']),
  /** Mexico's public holidays plus the CNBV bank holidays (Holy Thursday and Friday, 2 Nov, 12 Dec). */
  MEXICO_BANKING: countryHolidays('MX', undefined, ['public', 'bank']),
  /** Brazil's national holidays plus the bank holidays (Carnival Monday and Tuesday, Corpus Christi). */
  BRAZIL_BANKING: countryHolidays('BR', undefined, ['public', 'bank']),
}

const closedDays = new Map<string, ReadonlySet<string>>()

/** The calendar's holidays in `year` as ISO dates (YYYY-MM-DD), computed once per calendar and year. */
export function holidaysOf(calendar: BusinessCalendar, year: number): ReadonlySet<string> {
  if (!Number.isInteger(year) || year < BUSINESS_CALENDAR_LIMITS.minYear || year > BUSINESS_CALENDAR_LIMITS.maxYear) {
    throw new RangeError(`no business calendar for year ${year}`)
  }
  if (calendar === 'ALWAYS_OPEN') return new Set()
  const key = `${calendar}:${year}`
  let days = closedDays.get(key)
  if (!days) {
    days = new Set(HOLIDAY_SOURCES[calendar](year).map(isoDateOf))
    closedDays.set(key, days)
  }
  return days
}

/** Whether the settlement system is open on this local date (YYYY-MM-DD): a weekday that is no holiday. */
export function isBusinessDay(calendar: BusinessCalendar, isoDate: string): boolean {
  if (calendar === 'ALWAYS_OPEN') return true
  const weekday = weekdayOfIsoDate(isoDate)
  if (Number.isNaN(weekday)) throw new RangeError(`${isoDate} is not a date (YYYY-MM-DD)`)
  return weekday <= 5 && !holidaysOf(calendar, Number(isoDate.slice(0, 4))).has(isoDate)
}
