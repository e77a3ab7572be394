// The console sessions (console_sessions, migration 0034): opened with an active platform key, found
// by the hash of their token, ended by sign-out. A session is valid only while its key is: every
// lookup joins the key's row, so a revoked key signs its sessions out at once (no cache to outlive it).
import type { Kysely } from 'kysely'
import type { ApiKeyRole } from '../../domain/organization/apiKeys.js'
import type { Environment } from '../../domain/shared/environment.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { CONSOLE_SESSION_LIMITS } from './sessionLimits.js'
import { hashSessionToken, isSessionToken, newSessionToken } from './sessionToken.js'

/** The platform key a session speaks for, as api_keys holds it. */
export type SessionKey = {
  keyId: string
  organizationId: string
  organizationName: string
  environment: Environment
  role: ApiKeyRole
  last4: string
}

export type ConsoleSession = SessionKey & { createdAt: Date; expiresAt: Date; lastSeenAt: Date }

/** When a session ends if nothing more happens: the sooner of its absolute and its idle expiry. */
export const idleExpiryOf = (session: Pick<ConsoleSession, 'lastSeenAt'>): Date =>
  new Date(session.lastSeenAt.getTime() + CONSOLE_SESSION_LIMITS.idleMs)

export type ConsoleSessionStore = ReturnType<typeof consoleSessionStore>

export function consoleSessionStore(deps: { db: Kysely<ReadDatabase>; environment: Environment; clock: () => Date }) {
  const { db } = deps

  const keys = () =>
    db
      .selectFrom('api_keys')
      .innerJoin('organizations', 'organizations.id', 'api_keys.organization_id')
      .select([
        'api_keys.id as keyId',
        'api_keys.organization_id as organizationId',
        'organizations.name as organizationName',
        'api_keys.environment',
        'api_keys.role',
        'api_keys.last4',
      ])
      .where('api_keys.revoked_at', 'is', null)
      .where('api_keys.environment', '=', deps.environment)

  return {
    /** The active platform key of this environment with that hash, if any. */
    async keyOf(keyHash: string): Promise<SessionKey | undefined> {
      return keys().where('api_keys.key_hash', '=', keyHash).executeTakeFirst()
    },

    /** A new session of the key, its token (for the cookie only), and room made: expired sessions and the key's oldest past the cap go. */
    async open(key: SessionKey): Promise<{ token: string; session: ConsoleSession }> {
      const now = deps.clock()
      const token = newSessionToken()
      const session: ConsoleSession = {
        ...key,
        createdAt: now,
        expiresAt: new Date(now.getTime() + CONSOLE_SESSION_LIMITS.absoluteMs),
        lastSeenAt: now,
      }
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('console_sessions')
          .where('token_hash', 'in', (q) =>
            q
              .selectFrom('console_sessions')
              .select('token_hash')
              .where((w) =>
                w.or([w('expires_at', '<=', now), w('last_seen_at', '<=', new Date(now.getTime() - CONSOLE_SESSION_LIMITS.idleMs))]),
              )
              .limit(CONSOLE_SESSION_LIMITS.sweepPerSignIn),
          )
          .execute()
        await trx
          .insertInto('console_sessions')
          .values({
            token_hash: hashSessionToken(token),
            key_id: key.keyId,
            organization_id: key.organizationId,
            environment: key.environment,
            created_at: session.createdAt,
            expires_at: session.expiresAt,
            last_seen_at: session.lastSeenAt,
          })
          .execute()
        const kept = trx
          .selectFrom('console_sessions')
          .select('token_hash')
          .where('key_id', '=', key.keyId)
          .orderBy('created_at', 'desc')
          .limit(CONSOLE_SESSION_LIMITS.maxPerKey)
        await trx.deleteFrom('console_sessions').where('key_id', '=', key.keyId).where('token_hash', 'not in', kept).execute()
      })
      return { token, session }
    },

    /**
     * The live session of a token: not past either expiry, its key still active. An expired or orphaned
     * session is deleted on the way; a live one has its last_seen_at moved (at most once a minute).
     */
    async find(token: string): Promise<ConsoleSession | undefined> {
      if (!isSessionToken(token)) return undefined
      const now = deps.clock()
      const tokenHash = hashSessionToken(token)
      const row = await db
        .selectFrom('console_sessions')
        .select(['key_id', 'organization_id', 'environment', 'created_at', 'expires_at', 'last_seen_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst()
      if (!row) return undefined
      const key = await keys().where('api_keys.id', '=', row.key_id).executeTakeFirst()
      const live =
        key !== undefined &&
        key.organizationId === row.organization_id &&
        row.environment === deps.environment &&
        row.expires_at.getTime() > now.getTime() &&
        row.last_seen_at.getTime() + CONSOLE_SESSION_LIMITS.idleMs > now.getTime()
      if (!live) {
        await db.deleteFrom('console_sessions').where('token_hash', '=', tokenHash).execute()
        return undefined
      }
      let lastSeenAt = row.last_seen_at
      if (now.getTime() - lastSeenAt.getTime() >= CONSOLE_SESSION_LIMITS.touchEveryMs) {
        lastSeenAt = now
        await db.updateTable('console_sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute()
      }
      return { ...key, createdAt: row.created_at, expiresAt: row.expires_at, lastSeenAt }
    },

    /** Signs a token's session out (nothing when it has none). */
    async close(token: string): Promise<void> {
      if (!isSessionToken(token)) return
      await db.deleteFrom('console_sessions').where('token_hash', '=', hashSessionToken(token)).execute()
    },
  }
}
