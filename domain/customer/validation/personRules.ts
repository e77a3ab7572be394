// Rules on a person's data that need several fields or today's date: transliterated names, tax
// residence, the tax id against the nationality, date of birth, government id. Shared by
// individual customers and associated persons. Runs on the merged (saved + new) data.
import type { ErrorDetail } from '../../errors.js'
import { TWO_SIDED_GOVERNMENT_IDS } from '../enums.js'
import { isIsoDate, isWithinDays } from '../rules/dates.js'
import { isLatin1, needsTransliteration } from '../../shared/latin1.js'
import { checkTaxId } from '../rules/taxId.js'
import type { GovernmentId } from '../schemas/common.js'
import { type Address, addressRules } from '../../shared/address.js'

export type PersonData = {
  firstName?: string | undefined
  middleName?: string | undefined
  lastName?: string | undefined
  transliteratedFirstName?: string | undefined
  transliteratedMiddleName?: string | undefined
  transliteratedLastName?: string | undefined
  dateOfBirth?: string | undefined
  nationality?: string | undefined
  taxResidenceCountry?: string | undefined
  taxIdentificationNumber?: string | undefined
  address?: Address | undefined
  governmentId?: GovernmentId | undefined
}

const NAMES = [
  ['firstName', 'transliteratedFirstName'],
  ['middleName', 'transliteratedMiddleName'],
  ['lastName', 'transliteratedLastName'],
] as const

/** YYYY-MM-DD of `now` in UTC. */
export const today = (now: Date): string => now.toISOString().slice(0, 10)

export function isFutureDate(date: string, now: Date): boolean {
  return isIsoDate(date) && date > today(now)
}

/** Details for every broken rule, and the tax id as it is to be stored (normalized by its check). */
export function personRules(person: PersonData, now: Date): { details: ErrorDetail[]; taxIdentificationNumber?: string } {
  const details: ErrorDetail[] = []
  for (const [name, latin] of NAMES) {
    const value = person[name]
    if (value !== undefined && needsTransliteration(value) && person[latin] === undefined) {
      details.push({ field: latin, message: `required because ${name} has characters outside Latin-1` })
    }
    const given = person[latin]
    if (given !== undefined && !isLatin1(given)) details.push({ field: latin, message: 'must use Latin-1 characters only', value: given })
  }
  if (person.taxResidenceCountry !== undefined && person.taxResidenceCountry === person.nationality) {
    details.push({
      field: 'taxResidenceCountry',
      message: 'give taxResidenceCountry only when it differs from nationality',
      value: person.taxResidenceCountry,
    })
  }
  let stored: string | undefined
  if (person.taxIdentificationNumber !== undefined) {
    const check = checkTaxId(person.taxIdentificationNumber, person.nationality)
    if (check.ok) stored = check.stored
    else details.push({ field: 'taxIdentificationNumber', message: check.message })
  }
  if (person.dateOfBirth !== undefined && isFutureDate(person.dateOfBirth, now)) {
    details.push({ field: 'dateOfBirth', message: 'must not be in the future', value: person.dateOfBirth })
  }
  details.push(...addressRules(person.address, 'address'))
  details.push(...governmentIdRules(person.governmentId, now))
  return { details, ...(stored !== undefined ? { taxIdentificationNumber: stored } : {}) }
}

export function governmentIdRules(id: GovernmentId | undefined, now: Date): ErrorDetail[] {
  if (!id) return []
  const details: ErrorDetail[] = []
  if (TWO_SIDED_GOVERNMENT_IDS.has(id.type) && id.backImage === undefined) {
    details.push({ field: 'governmentId.backImage', message: `required for ${id.type}` })
  }
  if (id.expirationDate !== undefined && id.expirationDate < today(now)) {
    details.push({ field: 'governmentId.expirationDate', message: 'the document has expired', value: id.expirationDate })
  }
  return details
}

/** A proof of address must be dated within `maxAgeDays` (and not in the future). */
export function proofOfAddressDated(documentDate: string, now: Date, maxAgeDays: number): boolean {
  return isWithinDays(documentDate, now, maxAgeDays)
}
