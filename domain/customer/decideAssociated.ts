// Associated persons and businesses of a business customer: add one (optionally with a
// verification link) or change one, keeping the ownership tree valid.
import { DomainError, invalid, notFound } from '../errors.js'
import type { CustomerCommandOf } from './commands.js'
import { openSession } from './decideSessions.js'
import type { CustomerEvent } from './events.js'
import { requireEditable, requireType } from './guards.js'
import { ownershipNodes } from './requirements.js'
import type { AssociatedEntityData } from './schemas/associatedEntity.js'
import { type Customer, summaryOf } from './state.js'
import { assertOwnershipTree, associatedRules } from './validation/associatedRules.js'
import { type DocumentFacts, documentRefRules, documentRefs } from './validation/documentRefs.js'

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}

/** Validates one entity's merged data; returns the tax id as it is to be stored, if any. */
function validate(
  c: Customer,
  entityType: 'INDIVIDUAL' | 'BUSINESS',
  data: AssociatedEntityData,
  link: { generateVerificationLink?: boolean | undefined; sendInvite?: boolean | undefined },
  documents: Readonly<Record<string, DocumentFacts>>,
  now: Date,
): string | undefined {
  const rules = associatedRules(entityType, data, link, now)
  const details = [
    ...rules.details,
    ...documentRefRules(documentRefs(data), documents, { organizationId: c.organizationId, customerId: c.id }),
  ]
  if (details.length > 0) throw invalid('associated_entity_invalid', 'Associated entity data failed validation', details)
  return rules.taxIdentificationNumber
}

function nodeOf(id: string, entityType: 'INDIVIDUAL' | 'BUSINESS', data: AssociatedEntityData) {
  return {
    id,
    kind: entityType,
    parentId: data.parentEntityId ?? null,
    ownershipPercentage: data.ownershipPercentage ?? null,
    hasOwnership: data.hasOwnership ?? false,
    hasControl: data.hasControl ?? false,
  }
}

export function decideAddAssociated(c: Customer, command: CustomerCommandOf<'AddAssociatedEntity'>): CustomerEvent[] {
  requireType(c, 'BUSINESS')
  requireEditable(c)
  if (c.associated.some((e) => e.id === command.entityId)) {
    throw new DomainError('conflict', 'resource_already_exists', `Associated entity ${command.entityId} already exists`)
  }
  const { generateVerificationLink, sendInvite, ...fields } = command.body
  const data: AssociatedEntityData = defined(fields)
  const taxId = validate(c, command.entityType, data, { generateVerificationLink, sendInvite }, command.documents, new Date(command.now))
  if (data.taxIdentificationNumber !== undefined) data.taxIdentificationNumber = taxId
  assertOwnershipTree([...ownershipNodes(c), nodeOf(command.entityId, command.entityType, data)], command.entityId)

  const added: CustomerEvent = {
    type: 'AssociatedEntityAdded',
    data: {
      customerId: c.id,
      entityId: command.entityId,
      entityType: command.entityType,
      data,
      summary: { ...summaryOf(c), updatedAt: command.now },
      createdAt: command.now,
    },
  }
  if (!generateVerificationLink && !sendInvite) return [added]
  return [added, ...openSession(c, command.session, command.entityId, data.email ?? null, sendInvite === true, command.now)]
}

export function decideUpdateAssociated(c: Customer, command: CustomerCommandOf<'UpdateAssociatedEntity'>): CustomerEvent[] {
  requireType(c, 'BUSINESS')
  requireEditable(c)
  const entity = c.associated.find((e) => e.id === command.entityId && e.entityType === command.entityType)
  if (!entity) throw notFound('Associated entity', command.entityId)
  const changes = defined(command.changes)
  const merged = { ...entity.data, ...changes }
  const taxId = validate(c, entity.entityType, merged, {}, command.documents, new Date(command.now))
  if (changes.taxIdentificationNumber !== undefined) changes.taxIdentificationNumber = taxId
  const nodes = ownershipNodes(c).map((n) => (n.id === entity.id ? nodeOf(entity.id, entity.entityType, merged) : n))
  assertOwnershipTree(nodes, entity.id)
  return [
    {
      type: 'AssociatedEntityUpdated',
      data: {
        customerId: c.id,
        entityId: entity.id,
        changes,
        summary: { ...summaryOf(c), updatedAt: command.now },
        updatedAt: command.now,
      },
    },
  ]
}
