// The id of a transfer the platform creates for another (a refund, a fee sweep): derived from the
// parent's id and the purpose, so a workflow that runs again after a crash creates the same
// transfer (its CreateTransfer is then a no-op) instead of a second one. Same shape as newId: the
// parent's time part, then 16 characters of a hash, in the ids' alphabet.
import { createHash } from 'node:crypto'
import type { TransferId } from '../../domain/shared/ids.js'

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

export function derivedTransferId(parentId: string, purpose: 'refund' | 'fee'): TransferId {
  const digest = createHash('sha256').update(`${parentId}:${purpose}`).digest()
  let tail = ''
  for (let i = 0; i < 16; i++) tail += ALPHABET[digest[i]! % 32]
  return `tfr_${parentId.slice(4, 14)}${tail}`
}
