// A postal address: its request shape (lengths, country code) and its one rule across fields, that
// a line with characters outside Latin-1 needs its transliterated (Latin) form. Shape problems are
// 400s at the edge; the rule's details are 422s, returned with the other validation details.
import { z } from 'zod'
import { sensitive } from './sensitive/index.js'
import type { ErrorDetail } from '../errors.js'
import { countryCodeSchema } from './country.js'
import { isLatin1, needsTransliteration } from './latin1.js'

export const ADDRESS_LIMITS = {
  lineMaxLength: 200,
  cityMaxLength: 100,
  stateMaxLength: 100,
  postalCodeMaxLength: 20,
} as const

const L = ADDRESS_LIMITS

/** A street line: personal data, sealed wherever it is stored. */
const streetLine = sensitive(z.string().trim().min(1).max(L.lineMaxLength))

export const addressSchema = z.object({
  addressLine1: streetLine,
  addressLine2: streetLine.optional(),
  city: z.string().trim().min(1).max(L.cityMaxLength),
  state: z.string().trim().min(1).max(L.stateMaxLength).optional(),
  postalCode: z.string().trim().min(1).max(L.postalCodeMaxLength),
  country: countryCodeSchema,
  transliterated: z
    .object({
      addressLine1: streetLine.optional(),
      addressLine2: streetLine.optional(),
      city: z.string().trim().min(1).max(L.cityMaxLength).optional(),
      state: z.string().trim().min(1).max(L.stateMaxLength).optional(),
    })
    .optional()
    .describe('Latin-character version; required for the lines that use characters outside Latin-1'),
})
export type Address = z.infer<typeof addressSchema>

const LINES = ['addressLine1', 'addressLine2', 'city', 'state'] as const

/** The transliteration details of an address at `field` (for example `address`), or none. */
export function addressRules(address: Address | undefined, field: string): ErrorDetail[] {
  if (!address) return []
  const details: ErrorDetail[] = []
  for (const line of LINES) {
    const value = address[line]
    const latin = address.transliterated?.[line]
    if (value !== undefined && needsTransliteration(value) && latin === undefined) {
      details.push({ field: `${field}.transliterated.${line}`, message: `required because ${line} has characters outside Latin-1` })
    }
    if (latin !== undefined && !isLatin1(latin)) {
      details.push({ field: `${field}.transliterated.${line}`, message: 'must use Latin-1 characters only', value: latin })
    }
  }
  return details
}
