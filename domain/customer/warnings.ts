// Review warnings: things about the saved documents that do not block submission but that a
// reviewer will look at. Recomputed on every save from the merged data.
import { CUSTOMER_LIMITS } from './limits.js'
import { isWithinDays } from './rules/dates.js'
import type { DocumentItem, GovernmentId } from './schemas/common.js'
import { type DocumentFacts, documentRefs } from './validation/documentRefs.js'

type Data = {
  governmentId?: GovernmentId | undefined
  supportingDocuments?: DocumentItem[] | undefined
  proofOfSourceOfFunds?: DocumentItem[] | undefined
}

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png'])

/** Days from today until `date` (negative when past). */
function expiresWithin(date: string, now: Date, days: number): boolean {
  const horizon = new Date(now.getTime() + days * 86_400_000)
  return date >= now.toISOString().slice(0, 10) && isWithinDays(date, horizon, days)
}

export function reviewWarnings(data: Data, facts: Readonly<Record<string, DocumentFacts>>, now: Date): string[] {
  const warnings: string[] = []
  const expiry = data.governmentId?.expirationDate
  if (expiry !== undefined && expiresWithin(expiry, now, CUSTOMER_LIMITS.governmentIdExpiryWarningDays)) {
    warnings.push(`governmentId.expirationDate: the document expires within ${CUSTOMER_LIMITS.governmentIdExpiryWarningDays} days`)
  }
  data.supportingDocuments?.forEach((d, i) => {
    const type = facts[d.file]?.contentType
    if (d.type === 'SELFIE' && type !== undefined && !IMAGE_TYPES.has(type)) {
      warnings.push(`supportingDocuments.${i}: a selfie should be a JPEG or PNG image, not ${type}`)
    }
  })
  const seen = new Map<string, string>()
  for (const ref of documentRefs(data)) {
    const first = seen.get(ref.documentId)
    if (first !== undefined) warnings.push(`${ref.field}: the same document is also used as ${first}`)
    else seen.set(ref.documentId, ref.field)
  }
  return warnings
}
