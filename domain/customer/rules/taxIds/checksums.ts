// Check-digit arithmetic shared by several national formats. Inputs are digit strings
// already checked with a regex by the caller.

import { daysInMonth } from '../dates.js'

export function digitsOf(value: string): number[] {
  return [...value].map((c) => c.charCodeAt(0) - 48)
}

/** Sum of digit * weight, pairing from the left. */
export function weightedSum(digits: string, weights: readonly number[]): number {
  let sum = 0
  digitsOf(digits).forEach((d, i) => {
    sum += d * (weights[i] ?? 0)
  })
  return sum
}

/** Luhn (mod 10), the check digit being the last digit. */
export function luhnValid(digits: string): boolean {
  let sum = 0
  const ds = digitsOf(digits).reverse()
  ds.forEach((d, i) => {
    if (i % 2 === 1) {
      const twice = d * 2
      sum += twice > 9 ? twice - 9 : twice
    } else sum += d
  })
  return sum % 10 === 0
}

/** ISO 7064 MOD 11,10 (pure system, recursive): the last digit is the check digit. */
export function iso7064Mod11_10Valid(digits: string): boolean {
  const ds = digitsOf(digits)
  let product = 10
  for (const d of ds.slice(0, -1)) {
    let sum = (d + product) % 10
    if (sum === 0) sum = 10
    product = (sum * 2) % 11
  }
  const check = (11 - product) % 10
  return check === ds[ds.length - 1]
}

/** EAN-13 / GTIN check digit (weights 1,3 from the left). */
export function ean13Valid(digits: string): boolean {
  if (digits.length !== 13) return false
  const ds = digitsOf(digits)
  let sum = 0
  for (let i = 0; i < 12; i++) sum += (ds[i] ?? 0) * (i % 2 === 0 ? 1 : 3)
  return (10 - (sum % 10)) % 10 === ds[12]
}

/** A real month/day; with no year (yy only, century unknown) 29 February is allowed. */
export function isValidDayMonth(month: number, day: number, year?: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false
  if (year === undefined) return day <= (month === 2 ? 29 : daysInMonth(2001, month))
  return day <= daysInMonth(year, month)
}

/** A YYMMDD date valid in at least one of the given centuries. */
export function isValidYymmdd(yymmdd: string, centuries: readonly number[] = [1900, 2000]): boolean {
  const yy = Number(yymmdd.slice(0, 2))
  const mm = Number(yymmdd.slice(2, 4))
  const dd = Number(yymmdd.slice(4, 6))
  return centuries.some((c) => isValidDayMonth(mm, dd, c + yy))
}
