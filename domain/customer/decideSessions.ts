// Verification sessions: open one (superseding the subject's active one), expire one when due,
// and move the sessions along with the customer's submission and review.
import { conflict, invalid } from '../errors.js'
import type { CustomerCommandOf, NewSession } from './commands.js'
import type { CustomerEvent } from './events.js'
import { CUSTOMER_LIMITS } from './limits.js'
import type { Customer, VerificationSession } from './state.js'
import { requireEditable } from './guards.js'

/** Lazily expired: an ACTIVE session past expiresAt reads as EXPIRED before the timer records it. */
export function effectiveSessionStatus(s: VerificationSession, now: Date): VerificationSession['status'] {
  return s.status === 'ACTIVE' && Date.parse(s.expiresAt) <= now.getTime() ? 'EXPIRED' : s.status
}

const ref = (c: Customer, s: { id: string; associatedEntityId: string | null }) => ({
  customerId: c.id,
  sessionId: s.id,
  associatedEntityId: s.associatedEntityId,
})

/** Events that open a session for the customer (associatedEntityId null) or one associated entity. */
export function openSession(
  c: Customer,
  session: NewSession,
  associatedEntityId: string | null,
  email: string | null,
  sendInvite: boolean,
  now: string,
): CustomerEvent[] {
  if (c.sessions.length >= CUSTOMER_LIMITS.verificationSessionsMax) {
    throw conflict(
      'verification_sessions_limit',
      `A customer may have at most ${CUSTOMER_LIMITS.verificationSessionsMax} verification sessions`,
    )
  }
  if (sendInvite && email === null)
    throw invalid('email_required', 'An email address is needed to send the link', [
      { field: 'email', message: 'required when sendInvite is true' },
    ])
  const superseded: CustomerEvent[] = c.sessions
    .filter((s) => s.associatedEntityId === associatedEntityId && s.status === 'ACTIVE')
    .map((s) => ({ type: 'VerificationSessionExpired', data: { ...ref(c, s), reason: 'SUPERSEDED', at: now } }))
  const created: CustomerEvent = {
    type: 'VerificationSessionCreated',
    data: {
      customerId: c.id,
      sessionId: session.sessionId,
      associatedEntityId,
      verificationUrl: session.verificationUrl,
      email,
      expiresAt: session.expiresAt,
      createdAt: now,
    },
  }
  const sent: CustomerEvent[] =
    sendInvite && email !== null
      ? [{ type: 'VerificationLinkSent', data: { customerId: c.id, sessionId: session.sessionId, associatedEntityId, email, sentAt: now } }]
      : []
  return [...superseded, created, ...sent]
}

export function decideCreateSession(c: Customer, command: CustomerCommandOf<'CreateVerificationSession'>): CustomerEvent[] {
  requireEditable(c)
  let email = command.email ?? null
  if (command.associatedEntityId !== null) {
    const entity = c.associated.find((e) => e.id === command.associatedEntityId)
    if (!entity) {
      throw invalid('associated_entity_not_found', 'associatedEntityId does not name an associated person or business of this customer', [
        { field: 'associatedEntityId', message: 'not found for this customer', value: command.associatedEntityId },
      ])
    }
    email ??= entity.data.email ?? null
  } else email ??= c.email
  return openSession(c, command.session, command.associatedEntityId, email, command.sendInvite, command.now)
}

export function decideExpireSession(c: Customer, command: CustomerCommandOf<'ExpireVerificationSession'>): CustomerEvent[] {
  const s = c.sessions.find((x) => x.id === command.sessionId)
  // Already moved on, or not yet due: nothing to do (the timer may race a submission).
  if (!s || s.status !== 'ACTIVE' || Date.parse(s.expiresAt) > Date.parse(command.now)) return []
  return [{ type: 'VerificationSessionExpired', data: { ...ref(c, s), reason: 'EXPIRED', at: command.now } }]
}

/** On submission: active sessions are submitted, or expired when already past their time. */
export function sessionsOnSubmit(c: Customer, now: string): CustomerEvent[] {
  const at = new Date(now)
  return c.sessions
    .filter((s) => s.status === 'ACTIVE')
    .map((s): CustomerEvent =>
      effectiveSessionStatus(s, at) === 'EXPIRED'
        ? { type: 'VerificationSessionExpired', data: { ...ref(c, s), reason: 'EXPIRED', at: now } }
        : { type: 'VerificationSessionSubmitted', data: { ...ref(c, s), at: now } },
    )
}

/** On a review outcome: submitted sessions complete (approved) or fail (anything else). */
export function sessionsOnReview(c: Customer, outcome: string, now: string): CustomerEvent[] {
  return c.sessions
    .filter((s) => s.status === 'SUBMITTED')
    .map((s): CustomerEvent =>
      outcome === 'APPROVED'
        ? { type: 'VerificationSessionCompleted', data: { ...ref(c, s), at: now } }
        : { type: 'VerificationSessionFailed', data: { ...ref(c, s), reason: outcome, at: now } },
    )
}

/** After archiving: no link of an archived customer stays usable (nothing to do for one not archived). */
export function decideExpireArchivedSessions(c: Customer, command: CustomerCommandOf<'ExpireArchivedCustomerSessions'>): CustomerEvent[] {
  if (c.status !== 'ARCHIVED') return []
  return sessionsOnArchive(c, command.now)
}

function sessionsOnArchive(c: Customer, now: string): CustomerEvent[] {
  return c.sessions
    .filter((s) => s.status === 'ACTIVE')
    .map((s): CustomerEvent => ({ type: 'VerificationSessionExpired', data: { ...ref(c, s), reason: 'CUSTOMER_ARCHIVED', at: now } }))
}
