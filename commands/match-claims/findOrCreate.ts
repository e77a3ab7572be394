// Find or create a resource by its match key (domain/match-claim/): the key's claim stream says
// which resource answers it.
//   - claimed by a live resource: that one (created: false);
//   - claimed by one whose stream is still empty (its creator crashed, or is still creating): it
//     is created under the claimed id by whichever request gets there first;
//   - unclaimed, or claimed by a gone one (deleted, closed): a new id is claimed with the revision
//     read, so of concurrent requests exactly one claim lands; the others read it next round.
// Resource ids stay time-ordered (newId); only the small claim stream is keyed by the digest.
import type { FastifyRequest } from 'fastify'
import { type ClaimMatch, matchClaimDecider } from '../../domain/match-claim/decider.js'
import type { MatchKeyId } from '../../domain/match-claim/matchKey.js'
import { conflict } from '../../domain/errors.js'
import { streams } from '../../events/streams.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { originFrom } from '../runtime/requestOrigin.js'

export const MATCH_CLAIM_LIMITS = {
  /** Claim reads per request: each round ends it or sees a newer claim; only a storm of removals and creations on one key needs more. */
  maxRounds: 5,
} as const

/** What a claimed id's resource is now: live (matches), absent (never created), gone (deleted or closed: never matched). */
export type Liveness = 'live' | 'absent' | 'gone'

export type MatchTarget = {
  matchKey: MatchKeyId
  organizationId: string
  customerId: string
  liveness: (id: string) => Promise<Liveness>
}

async function claim(commands: CommandRuntime, request: FastifyRequest, t: MatchTarget, claimedId: string, replacing: string | null) {
  const command: ClaimMatch = {
    type: 'ClaimMatch',
    matchKey: t.matchKey,
    organizationId: t.organizationId,
    customerId: t.customerId,
    claimedId,
    replacing,
    now: new Date().toISOString(),
  }
  return (await commands.handle(matchClaimDecider, streams.matchClaim(t.matchKey), command, originFrom(request))).state.claimedBy
}

const readClaim = async (commands: CommandRuntime, t: MatchTarget) =>
  (await commands.load(matchClaimDecider, streams.matchClaim(t.matchKey))).state.claimedBy

export async function findOrCreate(
  commands: CommandRuntime,
  request: FastifyRequest,
  target: MatchTarget & {
    newId: () => string
    /** Creates the resource under `id`; false when it already exists (another request created it first). */
    create: (id: string) => Promise<boolean>
  },
): Promise<{ id: string; created: boolean }> {
  for (let round = 0; round < MATCH_CLAIM_LIMITS.maxRounds; round++) {
    const claimed = await readClaim(commands, target)
    if (claimed !== null) {
      const liveness = await target.liveness(claimed)
      if (liveness === 'live') return { id: claimed, created: false }
      if (liveness === 'absent') {
        if (await target.create(claimed)) return { id: claimed, created: true }
        continue
      }
    }
    const candidate = target.newId()
    if ((await claim(commands, request, target, candidate, claimed)) === candidate && (await target.create(candidate)))
      return { id: candidate, created: true }
  }
  throw conflict('concurrent_modification', 'The resource was changed concurrently; retry the request')
}

/**
 * After an explicit creation: the new resource answers its key unless a live one already does, so
 * a later find-or-create for the same content finds it. Best effort by design (an explicit create
 * always creates): when a concurrent claim wins, the explicit resource is simply unclaimed.
 */
export async function claimIfFree(commands: CommandRuntime, request: FastifyRequest, target: MatchTarget & { id: string }): Promise<void> {
  const claimed = await readClaim(commands, target)
  if (claimed !== null && (await target.liveness(claimed)) !== 'gone') return
  await claim(commands, request, target, target.id, claimed)
}
