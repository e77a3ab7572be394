// Create, submit, review (sandbox), archive and delete: the status machine of docs/decisions.md.
//   DRAFT --submit (nothing missing)--> UNDER_REVIEW --review--> APPROVED | REJECTED | NEEDS_MORE_INFORMATION
//   NEEDS_MORE_INFORMATION --save + submit--> UNDER_REVIEW;  any but ARCHIVED --archive--> ARCHIVED
//   never submitted (DRAFT or ARCHIVED) --delete--> gone, its personal data erased in the same append
import { DomainError, conflict } from '../errors.js'
import type { CustomerCommandOf } from './commands.js'
import type { CustomerStatus } from './enums.js'
import type { CustomerEvent, CustomerSummary } from './events.js'
import { EDITABLE_STATUSES } from './guards.js'
import { erasureOnDelete } from './decideErasure.js'
import { missingRequirements } from './requirements.js'
import { sessionsOnReview, sessionsOnSubmit } from './decideSessions.js'
import { type Customer, type CustomerState, individualName, summaryOf } from './state.js'

export function decideCreate(
  state: CustomerState,
  command: CustomerCommandOf<'CreateIndividualCustomer' | 'CreateBusinessCustomer'>,
): CustomerEvent[] {
  if (state.exists || state.deleted)
    throw new DomainError('conflict', 'resource_already_exists', `Customer ${command.customerId} already exists`)
  const base = {
    customerId: command.customerId,
    organizationId: command.organizationId,
    email: command.body.email ?? null,
    phone: command.body.phone ?? null,
    metadata: command.body.metadata ?? {},
    createdAt: command.now,
  }
  if (command.type === 'CreateBusinessCustomer') {
    return [
      {
        type: 'CustomerCreated',
        data: { ...base, type: 'BUSINESS', customerName: command.body.businessName, countryCode: command.body.countryCode },
      },
    ]
  }
  const b = command.body
  return [
    {
      type: 'CustomerCreated',
      data: {
        ...base,
        type: 'INDIVIDUAL',
        customerName: individualName(b),
        countryCode: b.countryCode ?? null,
        firstName: b.firstName,
        lastName: b.lastName,
        ...(b.middleName !== undefined ? { middleName: b.middleName } : {}),
      },
    },
  ]
}

const withStatus = (c: Customer, status: CustomerStatus, now: string): CustomerSummary => ({ ...summaryOf(c), status, updatedAt: now })

/** The submission events when nothing is missing; none otherwise (the customer stays as it is). */
export function submissionEvents(c: Customer, now: string): CustomerEvent[] {
  if (missingRequirements(c, new Date(now)).length > 0) return []
  return [
    {
      type: 'CustomerSubmitted',
      data: { customerId: c.id, previousStatus: c.status, summary: withStatus(c, 'UNDER_REVIEW', now), submittedAt: now },
    },
    ...sessionsOnSubmit(c, now),
  ]
}

export function decideSubmit(c: Customer, command: CustomerCommandOf<'SubmitCustomer'>): CustomerEvent[] {
  if (!EDITABLE_STATUSES.has(c.status)) {
    throw conflict(
      'customer_not_submittable',
      `Customer ${c.id} is ${c.status}; only DRAFT or NEEDS_MORE_INFORMATION customers can be submitted`,
    )
  }
  return submissionEvents(c, command.now)
}

export function decideReview(c: Customer, command: CustomerCommandOf<'SimulateReview'>): CustomerEvent[] {
  if (c.status !== 'UNDER_REVIEW')
    throw conflict('customer_not_under_review', `Customer ${c.id} is ${c.status}; a review outcome needs UNDER_REVIEW`)
  const summary = withStatus(c, command.outcome, command.now)
  const events: CustomerEvent[] = [
    {
      type: 'CustomerReviewed',
      data: {
        customerId: c.id,
        previousStatus: c.status,
        outcome: command.outcome,
        reasons: command.reasons,
        source: 'SANDBOX_SIMULATION',
        summary,
        reviewedAt: command.now,
      },
    },
  ]
  if (command.outcome === 'APPROVED')
    events.push({ type: 'CustomerVerified', data: { customerId: c.id, summary, verifiedAt: command.now } })
  return [...events, ...sessionsOnReview(c, command.outcome, command.now)]
}

export function decideArchive(c: Customer, command: CustomerCommandOf<'ArchiveCustomer'>): CustomerEvent[] {
  if (c.status === 'ARCHIVED') throw conflict('customer_archived', `Customer ${c.id} is already archived`)
  // Its open verification sessions expire next, by a workflow reacting to CustomerArchived
  // (commands/workflows/expireSessionsOnArchive.ts, command ExpireArchivedCustomerSessions).
  return [
    {
      type: 'CustomerArchived',
      data: { customerId: c.id, previousStatus: c.status, summary: withStatus(c, 'ARCHIVED', command.now), archivedAt: command.now },
    },
  ]
}

export function decideDelete(c: Customer, command: CustomerCommandOf<'DeleteCustomer'>): CustomerEvent[] {
  // Once submitted, the verification record must be kept for compliance: archive instead.
  if (c.submittedAt !== null)
    throw conflict('customer_not_deletable', `Customer ${c.id} was submitted for review and cannot be deleted; archive it instead`)
  return [{ type: 'CustomerDeleted', data: { customerId: c.id, deletedAt: command.now } }, ...erasureOnDelete(c, command)]
}
