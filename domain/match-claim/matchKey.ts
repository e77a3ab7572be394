// A match key's id: `mk_` + the SHA-256 of what must be equal for two requests to mean one
// resource (the kind of resource first), so the key names a stream without carrying its content.
import { createHash } from 'node:crypto'
import { ID_PREFIXES, type Id } from '../shared/ids.js'

export type MatchKeyId = Id<'mk'>

export function matchKeyId(kind: string, parts: readonly string[]): MatchKeyId {
  return `${ID_PREFIXES.matchKey}_${createHash('sha256')
    .update(JSON.stringify([kind, ...parts]))
    .digest('hex')}`
}
