// Rules on an associated person or business: the link needs an email, a percentage needs
// hasOwnership, a person's data follows the individual rules, and the ownership tree stays valid
// (no cycle, at most 100% at one level, parents are associated businesses, bounded size and depth).
import type { ErrorDetail } from '../../errors.js'
import { invalid } from '../../errors.js'
import { CUSTOMER_LIMITS } from '../limits.js'
import { type OwnershipNode, checkOwnershipLimits, checkOwnershipTree } from '../ownership/effectiveOwnership.js'
import type { AssociatedEntityData } from '../schemas/associatedEntity.js'
import { addressRules } from '../../shared/address.js'
import { isFutureDate, personRules } from './personRules.js'

export function associatedRules(
  entityType: 'INDIVIDUAL' | 'BUSINESS',
  data: AssociatedEntityData,
  link: { generateVerificationLink?: boolean | undefined; sendInvite?: boolean | undefined },
  now: Date,
): { details: ErrorDetail[]; taxIdentificationNumber?: string } {
  const details: ErrorDetail[] = []
  if ((link.generateVerificationLink || link.sendInvite) && data.email === undefined) {
    details.push({ field: 'email', message: 'required when generateVerificationLink or sendInvite is true' })
  }
  if (data.ownershipPercentage !== undefined && data.ownershipPercentage > 0 && data.hasOwnership !== true) {
    details.push({ field: 'hasOwnership', message: 'must be true when ownershipPercentage is above 0', value: data.hasOwnership ?? false })
  }
  if (entityType === 'BUSINESS') {
    if (data.dateOfIncorporation !== undefined && isFutureDate(data.dateOfIncorporation, now)) {
      details.push({ field: 'dateOfIncorporation', message: 'must not be in the future', value: data.dateOfIncorporation })
    }
    details.push(...addressRules(data.address, 'address'))
    return { details }
  }
  const person = personRules(data, now)
  return {
    details: [...details, ...person.details],
    ...(person.taxIdentificationNumber !== undefined ? { taxIdentificationNumber: person.taxIdentificationNumber } : {}),
  }
}

/** Throws a 422 naming the offending field when the tree with this change would be invalid. */
export function assertOwnershipTree(nodes: OwnershipNode[], changedId: string): void {
  // Structure first: a cycle would otherwise read as "too deep".
  const tree = checkOwnershipTree(nodes)
  if (!tree.ok) {
    const field = tree.code === 'ownership_over_100' ? 'ownershipPercentage' : 'parentEntityId'
    throw invalid(tree.code, tree.message, [{ field, message: `${tree.message} (changing ${changedId})`, value: tree.nodeIds }])
  }
  const limits = checkOwnershipLimits(nodes, {
    maxNodes: CUSTOMER_LIMITS.associatedEntitiesMax,
    maxDepth: CUSTOMER_LIMITS.ownershipMaxDepth,
  })
  if (!limits.ok) throw invalid(limits.code, limits.message, [{ field: 'parentEntityId', message: limits.message, value: limits.nodeIds }])
}
