// The match-claim aggregate's descriptor: one stream per match key (`match_claim-mk_<sha256>`).
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { matchClaimDecider } from './decider.js'
import { matchClaimEventSchemas } from './events.js'

export const matchClaimAggregate = defineAggregate({
  name: 'matchClaim',
  streamCategory: 'match_claim',
  idPrefix: ID_PREFIXES.matchKey,
  eventSchemas: matchClaimEventSchemas,
  decider: matchClaimDecider,
  // Nothing sensitive: a digest and ids.
  dataSubject: 'organization',
})
