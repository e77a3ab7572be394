// Idempotency-Key on every POST/PUT/PATCH/DELETE of a /v1 route (registered in that scope):
// durable in Postgres, scoped to the organization, kept 24 hours. The first request claims the key
// with an INSERT; a replay returns the stored status and body with `Idempotent-Replayed: true`.
// Like Stripe, nothing is stored for requests refused before the handler runs (authentication,
// validation, a concurrent twin). The stored body is sealed (sealedResponse.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'
import { ApiError } from '../../http/errorBody.js'
import { idempotencyKey, invalidIdempotencyKey } from '../../http/headers.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import { requestFingerprint } from './fingerprint.js'
import { openResponse, sealResponse } from './sealedResponse.js'

export const IDEMPOTENCY_LIMITS = {
  retentionMs: 24 * 60 * 60 * 1000,
  /** How often expired records are purged (server/backgroundJobs.ts). */
  purgeIntervalMs: 60 * 60 * 1000,
  /** A claim older than this belongs to a crashed request and may be taken over. */
  lockMs: 60_000,
  maxStoredBodyBytes: 1_000_000,
} as const

/** The SQL cut-off of retention, by the database's clock (timestamptz keeps microseconds a JS Date would drop). */
const retentionCutoff = () => sql<Date>`now() - ${IDEMPOTENCY_LIMITS.retentionMs}::double precision * interval '1 millisecond'`

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { organizationId: string; key: string }
  }
}

async function claim(db: Kysely<ReadDatabase>, organizationId: string, key: string, fingerprint: string): Promise<boolean> {
  const lockedUntil = new Date(Date.now() + IDEMPOTENCY_LIMITS.lockMs)
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      organization_id: organizationId,
      key,
      fingerprint,
      state: 'in_progress',
      response_status: null,
      response_body: null,
      response_sealed: null,
      locked_until: lockedUntil,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst()
  return inserted !== undefined
}

export const idempotency = fp(async (app: FastifyInstance, options: { db: Kysely<ReadDatabase>; protection: DataProtection }) => {
  const { db, protection } = options
  app.decorateRequest('idempotency', undefined)

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key']
    // Unknown routes answer 404 whatever the key: only a matched route's requests are recorded.
    const route = request.routeOptions.url
    if (!MUTATING.has(request.method) || header === undefined || !request.principal || !route) return
    const key = Array.isArray(header) ? header[0]! : header
    // Routes declare the header's schema too; this covers any that would not.
    if (!idempotencyKey.safeParse(key).success) throw invalidIdempotencyKey()
    const organizationId = request.principal.organizationId
    const fingerprint = requestFingerprint({
      method: request.method,
      route,
      params: request.params,
      query: request.query,
      body: request.body,
    })

    for (let attempt = 0; attempt < 2; attempt++) {
      if (await claim(db, organizationId, key, fingerprint)) {
        request.idempotency = { organizationId, key }
        return
      }
      const existing = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('key', '=', key)
        .executeTakeFirst()
      if (!existing) continue // deleted between our insert and select: claim again
      if (existing.created_at.getTime() < Date.now() - IDEMPOTENCY_LIMITS.retentionMs) {
        await db
          .deleteFrom('idempotency_keys')
          .where('organization_id', '=', organizationId)
          .where('key', '=', key)
          .where('created_at', '<', retentionCutoff())
          .execute()
        continue
      }
      if (existing.fingerprint !== fingerprint) {
        throw new ApiError(409, 'This Idempotency-Key was already used with a different method, path or body', 'idempotency_key_reused')
      }
      if (existing.state === 'completed') {
        reply.header('Idempotent-Replayed', 'true')
        reply.header('content-type', 'application/json; charset=utf-8')
        request.idempotency = undefined
        const body = await openResponse(protection, { organizationId, key }, existing)
        return reply.code(existing.response_status ?? 200).send(body)
      }
      if (existing.locked_until.getTime() > Date.now()) {
        throw new ApiError(
          409,
          'A request with this Idempotency-Key is still in progress; retry shortly',
          'idempotency_request_in_progress',
        )
      }
      // The first request's process died mid-flight: take the key over, once.
      const taken = await db
        .updateTable('idempotency_keys')
        .set({ locked_until: new Date(Date.now() + IDEMPOTENCY_LIMITS.lockMs) })
        .where('organization_id', '=', organizationId)
        .where('key', '=', key)
        .where('state', '=', 'in_progress')
        .where('locked_until', '<', sql<Date>`now()`)
        .returning('key')
        .executeTakeFirst()
      if (taken) {
        request.idempotency = { organizationId, key }
        return
      }
    }
    throw new ApiError(409, 'A request with this Idempotency-Key is still in progress; retry shortly', 'idempotency_request_in_progress')
  })

  app.addHook('onSend', async (request, reply, payload) => {
    const claimKey = request.idempotency
    if (!claimKey || reply.getHeader('Idempotent-Replayed')) return payload
    request.idempotency = undefined
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : ''
    if (Buffer.byteLength(body) > IDEMPOTENCY_LIMITS.maxStoredBodyBytes) {
      await db
        .deleteFrom('idempotency_keys')
        .where('organization_id', '=', claimKey.organizationId)
        .where('key', '=', claimKey.key)
        .execute()
      return payload
    }
    await db
      .updateTable('idempotency_keys')
      .set({ state: 'completed', response_status: reply.statusCode, ...(await sealResponse(protection, claimKey, request.url, body)) })
      .where('organization_id', '=', claimKey.organizationId)
      .where('key', '=', claimKey.key)
      .execute()
    return payload
  })
})

/** Deletes records past retention (by the database's clock); a background job of the server. */
export async function purgeExpiredIdempotencyKeys(db: Kysely<ReadDatabase>): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', retentionCutoff()).executeTakeFirst()
  return Number(result.numDeletedRows)
}
