// Documents named by verification data: where each is referenced, and whether each may be used
// (uploaded by this organization, and for this customer or for none in particular).
import type { ErrorDetail } from '../../errors.js'
import type { DocumentItem, GovernmentId, ProofOfAddress } from '../schemas/common.js'

export type DocumentRef = { field: string; documentId: string }

/** What the command layer learned about a document from its stream. */
export type DocumentFacts = { organizationId: string; customerId: string | null; contentType: string }

type WithDocuments = {
  governmentId?: GovernmentId | undefined
  proofOfAddress?: ProofOfAddress | undefined
  supportingDocuments?: DocumentItem[] | undefined
  proofOfSourceOfFunds?: DocumentItem[] | undefined
}

export function documentRefs(data: WithDocuments): DocumentRef[] {
  const refs: DocumentRef[] = []
  if (data.governmentId) {
    refs.push({ field: 'governmentId.frontImage', documentId: data.governmentId.frontImage })
    if (data.governmentId.backImage) refs.push({ field: 'governmentId.backImage', documentId: data.governmentId.backImage })
  }
  if (data.proofOfAddress) refs.push({ field: 'proofOfAddress.file', documentId: data.proofOfAddress.file })
  data.supportingDocuments?.forEach((d, i) => refs.push({ field: `supportingDocuments.${i}.file`, documentId: d.file }))
  data.proofOfSourceOfFunds?.forEach((d, i) => refs.push({ field: `proofOfSourceOfFunds.${i}.file`, documentId: d.file }))
  return refs
}

/** Distinct document ids, in order of first reference. */
export function documentIdsOf(data: WithDocuments): string[] {
  return [...new Set(documentRefs(data).map((r) => r.documentId))]
}

export function documentRefRules(
  refs: DocumentRef[],
  facts: Readonly<Record<string, DocumentFacts>>,
  scope: { organizationId: string; customerId: string },
): ErrorDetail[] {
  const details: ErrorDetail[] = []
  for (const ref of refs) {
    const doc = facts[ref.documentId]
    if (!doc || doc.organizationId !== scope.organizationId) {
      details.push({ field: ref.field, message: 'document not found: upload it with POST /v1/documents', value: ref.documentId })
    } else if (doc.customerId !== null && doc.customerId !== scope.customerId) {
      details.push({ field: ref.field, message: 'document was uploaded for another customer', value: ref.documentId })
    }
  }
  return details
}
