// accountPurposeExplanation is required when accountPurpose is OTHER.
import type { ErrorDetail } from '../../errors.js'

export function purposeRules(p: { accountPurpose?: string | undefined; accountPurposeExplanation?: string | undefined }): ErrorDetail[] {
  if (p.accountPurpose === 'OTHER' && p.accountPurposeExplanation === undefined) {
    return [{ field: 'accountPurposeExplanation', message: 'required when accountPurpose is OTHER' }]
  }
  return []
}
