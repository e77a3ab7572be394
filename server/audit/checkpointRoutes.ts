// The audit checkpoints over HTTP (issue 29): the latest signed checkpoint of the event log's Merkle
// tree, a consistency proof between two tree sizes (the later tree extends the earlier: nothing an
// auditor saw was changed since), and an inclusion proof of one of the organization's events (it is
// leaf N of the tree). Proofs are RFC 6962 paths, checked with RFC 9162 §2.1.3-2.1.4; hashes are hex.
// Sandbox also signs one on demand. A checkpoint covers every tenant's events: its size and root say
// nothing about any one of them, and each organization's webhooks carry it anyway.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { DomainError, conflict, invalid, notFound } from '../../domain/errors.js'
import type { Environment } from '../../domain/shared/environment.js'
import { checkpointRecordSchema } from '../../events/integrity/checkpointRecord.js'
import { latestCheckpoint } from '../../events/integrity/checkpointSealer.js'
import { consistencyProofAt, inclusionProofAt, rootAt } from '../../events/integrity/merkleTree.js'
import { leafOfEventId, withStoredNodes } from '../../events/integrity/treeStore.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders, writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { sandboxOnly } from '../../commands/sandbox/sandboxOnly.js'
import type { Kysely } from 'kysely'
import { type AuditSealing, sealAuditCheckpoint } from './auditCheckpoints.js'

const TAGS = ['Audit']
const hex = z.string().regex(/^[0-9a-f]{64}$/)
const checkpointJson = checkpointRecordSchema.describe(
  'A signed tree head: Ed25519 (publicKey, raw 32 bytes base64) over the RFC 8785 JSON of {rootHash, sealedAt, treeSize}',
)
const treeSize = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER)

export type CheckpointRouteDeps = {
  db: Kysely<ReadDatabase>
  environment: Environment
  audit: { sealing: AuditSealing; caughtUp(timeoutMs: number): Promise<boolean> }
}

const noCheckpoint = () => new DomainError('not_found', 'no_checkpoint', 'No checkpoint has been signed yet')

async function latestOrThrow(db: Kysely<ReadDatabase>) {
  const latest = await latestCheckpoint(db)
  if (!latest) throw noCheckpoint()
  return latest
}

/** A size the latest checkpoint covers: proofs answer only for trees someone could hold a signed head of. */
function withinLatest(size: number, latest: number, field: string): number {
  if (size > latest)
    throw invalid('tree_size_not_sealed', `${field} ${size} is past the latest checkpoint (${latest} events)`, [
      { field, message: `at most ${latest}` },
    ])
  return size
}

export const auditCheckpointRoutes: FastifyPluginAsyncZod<CheckpointRouteDeps> = async (app, deps) => {
  app.get(
    '/audit/checkpoints/latest',
    {
      schema: {
        operationId: 'getLatestCheckpoint',
        tags: TAGS,
        summary: 'The latest signed checkpoint of the event log',
        description:
          'The Merkle tree (RFC 6962) over every event in commit order, as last signed: its size, root and time. Each is also ' +
          'sent as an audit.checkpoint_sealed webhook. Keep it, and check it later with `audit verify --checkpoint`. 404 no_checkpoint.',
        headers: readHeaders,
        response: { 200: checkpointJson, ...errorResponses(403, 404) },
      },
    },
    async () => latestOrThrow(deps.db),
  )

  app.get(
    '/audit/checkpoints/consistency',
    {
      schema: {
        operationId: 'getCheckpointConsistencyProof',
        tags: TAGS,
        summary: 'Prove a later checkpoint extends an earlier one',
        description:
          'The RFC 6962 consistency proof from the tree of `from` events to the tree of `to` (default: the latest checkpoint), ' +
          'with both roots. Verify it with RFC 9162 §2.1.4.2. 422 tree_size_not_sealed when a size is past the latest checkpoint.',
        headers: readHeaders,
        querystring: z.object({ from: treeSize, to: treeSize.optional() }).strict(),
        response: {
          200: z.object({ from: z.number().int(), to: z.number().int(), fromRoot: hex, toRoot: hex, proof: z.array(hex) }),
          ...errorResponses(403, 404, 422),
        },
      },
    },
    async (request) => {
      const latest = await latestOrThrow(deps.db)
      const to = withinLatest(request.query.to ?? latest.treeSize, latest.treeSize, 'to')
      const from = request.query.from
      if (from > to)
        throw invalid('invalid_tree_sizes', `from (${from}) must not exceed to (${to})`, [{ field: 'from', message: `at most ${to}` }])
      return withStoredNodes(deps.db, (node) => ({
        from,
        to,
        fromRoot: rootAt(from, node).toString('hex'),
        toRoot: rootAt(to, node).toString('hex'),
        proof: consistencyProofAt(from, to, node).map((h) => h.toString('hex')),
      }))
    },
  )

  app.get(
    '/audit/events/:eventId/inclusion',
    {
      schema: {
        operationId: 'getEventInclusionProof',
        tags: TAGS,
        summary: 'Prove an event is in a checkpoint',
        description:
          'The RFC 6962 audit path of one of your events (its id as in the resource history, or a webhook message id without ' +
          '`evt_`) in the tree of `treeSize` events (default: the latest checkpoint). Verify with RFC 9162 §2.1.3.2: the leaf ' +
          'is SHA-256(0x00 || eventHash). 404 for an event of another organization; 409 event_not_sealed when it is newer.',
        headers: readHeaders,
        params: z.object({ eventId: z.uuid().describe('The stored event id') }),
        querystring: z.object({ treeSize: treeSize.optional() }).strict(),
        response: {
          200: z.object({
            eventId: z.string(),
            leafIndex: z.number().int(),
            treeSize: z.number().int(),
            leafHash: hex,
            rootHash: hex,
            proof: z.array(hex),
          }),
          ...errorResponses(403, 404, 409, 422),
        },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const { eventId } = request.params
      const leaf = await leafOfEventId(deps.db, eventId)
      if (!leaf || leaf.organizationId !== organizationId) throw notFound('Event', eventId)
      const latest = await latestOrThrow(deps.db)
      const size = withinLatest(request.query.treeSize ?? latest.treeSize, latest.treeSize, 'treeSize')
      if (leaf.leafIndex >= size) throw conflict('event_not_sealed', `Event ${eventId} is leaf ${leaf.leafIndex}: not in a tree of ${size}`)
      return withStoredNodes(deps.db, (node) => ({
        eventId,
        leafIndex: leaf.leafIndex,
        treeSize: size,
        leafHash: node(0, leaf.leafIndex).toString('hex'),
        rootHash: rootAt(size, node).toString('hex'),
        proof: inclusionProofAt(leaf.leafIndex, size, node).map((h) => h.toString('hex')),
      }))
    },
  )

  await app.register(async (sandbox) => {
    sandboxOnly(sandbox, deps.environment)
    sandbox.post(
      '/sandbox/audit/checkpoints',
      {
        schema: {
          operationId: 'signCheckpoint',
          tags: ['Sandbox', ...TAGS],
          summary: 'Sandbox: sign a checkpoint now',
          description:
            'Waits (at most 5 s) for the tree to take every event stored so far, then signs a checkpoint if it grew (201) or ' +
            'returns the latest (200); the server also signs one every AUDIT_CHECKPOINT_INTERVAL_MS. 403 in production.',
          headers: writeHeaders,
          response: { 200: checkpointJson, 201: checkpointJson, ...errorResponses(403, 404, 503) },
        },
      },
      async (_request, reply) => {
        await deps.audit.caughtUp(SANDBOX_SEAL_WAIT_MS)
        const sealed = await sealAuditCheckpoint(deps.db, deps.audit.sealing)
        if (sealed) return reply.code(201).send(sealed)
        return latestOrThrow(deps.db)
      },
    )
  })
}

const SANDBOX_SEAL_WAIT_MS = 5_000
