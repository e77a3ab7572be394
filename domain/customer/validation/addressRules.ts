// An address with characters outside Latin-1 needs the transliterated (Latin) lines.
import type { ErrorDetail } from '../../errors.js'
import { isLatin1, needsTransliteration } from '../rules/names.js'
import type { Address } from '../schemas/common.js'

const LINES = ['addressLine1', 'addressLine2', 'city', 'state'] as const

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
