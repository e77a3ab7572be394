// Tax identification number rules (spec: taxIdentificationNumber). The value is checked
// against the format of the customer's nationality when one is given. Refusal messages
// name the expected format but never echo the value: tax ids are sensitive.

import { AMERICAS_TAX_IDS } from './taxIds/americas.js'
import { ASIA_PACIFIC_TAX_IDS } from './taxIds/asiaPacific.js'
import { EUROPE_TAX_IDS } from './taxIds/europe.js'
import type { TaxIdFormat } from './taxIds/format.js'
import { MIDDLE_EAST_AFRICA_TAX_IDS } from './taxIds/middleEastAfrica.js'

export type TaxIdCheck = { ok: true; stored: string } | { ok: false; message: string }

export const TAX_ID_OVERRIDE_PREFIX = 'OVERRIDE:'
export const TAX_ID_NOT_APPLICABLE = 'NOT_APPLICABLE'

const FORMATS: Readonly<Record<string, TaxIdFormat>> = {
  ...AMERICAS_TAX_IDS,
  ...EUROPE_TAX_IDS,
  ...ASIA_PACIFIC_TAX_IDS,
  ...MIDDLE_EAST_AFRICA_TAX_IDS,
}

/** Nationalities whose tax id format is actually checked (others get the generic rule). */
export const TAX_ID_COUNTRIES: readonly string[] = Object.keys(FORMATS).sort()

// Countries without a specific rule: a plausible id, not free text.
const GENERIC = /^[A-Za-z0-9 \-/.]{4,30}$/

export function checkTaxId(value: string, nationality: string | undefined): TaxIdCheck {
  // An override stores the value untouched: the operator vouches for it.
  if (value.startsWith(TAX_ID_OVERRIDE_PREFIX)) {
    return value.slice(TAX_ID_OVERRIDE_PREFIX.length).trim() === ''
      ? { ok: false, message: `${TAX_ID_OVERRIDE_PREFIX} must be followed by the value to store` }
      : { ok: true, stored: value }
  }
  const trimmed = value.trim()
  const country = nationality?.trim().toUpperCase()
  if (trimmed === TAX_ID_NOT_APPLICABLE) {
    return country === 'US'
      ? { ok: false, message: 'US nationals must give a real SSN or ITIN' }
      : { ok: true, stored: TAX_ID_NOT_APPLICABLE }
  }
  if (trimmed === '') return { ok: false, message: 'tax identification number is empty' }
  // Without a nationality the format cannot be known; the caller decides whether that is enough.
  if (country === undefined || country === '') return { ok: true, stored: trimmed }

  const format = FORMATS[country]
  if (format) {
    const stored = format.check(trimmed)
    return stored === undefined ? { ok: false, message: `not a valid ${format.expected}` } : { ok: true, stored }
  }
  return GENERIC.test(trimmed)
    ? { ok: true, stored: trimmed }
    : { ok: false, message: "not a valid tax identification number: expected 4 to 30 letters, digits, spaces, '-', '/' or '.'" }
}
