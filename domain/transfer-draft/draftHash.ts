// A draft's hash: `sha256:` + the hex SHA-256 of its transfer body's RFC 8785 canonical JSON (keys
// sorted by UTF-16 code units, ECMAScript number form, minimal escaping), so the same content gives
// the same hash whatever the key order or spacing it was sent with. Pure: no clock, no randomness.
import canonicalize from 'canonicalize'
import { createHash } from 'node:crypto'
import { invalid } from '../errors.js'
import { destinationAccountIdOf } from '../transfer/planTransfer.js'
import type { DraftTransferBody } from './draftBody.js'

export const DRAFT_HASH_PATTERN = /^sha256:[0-9a-f]{64}$/

/** RFC 8785 (JSON Canonicalization Scheme) text of a JSON value. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value)
  if (text === undefined) throw new Error('a draft body is a JSON object')
  return text
}

export function draftHashOf(body: DraftTransferBody): string {
  return `sha256:${createHash('sha256').update(canonicalJson(body), 'utf8').digest('hex')}`
}

/**
 * The payee accounts a draft binds: the destination account (accountId or externalAccountId). A
 * body with none (a payout to a chain address) cannot be screened by account: 422.
 */
export function payeeAccountIdsOf(body: DraftTransferBody): string[] {
  const accountId = destinationAccountIdOf(body)
  if (accountId === undefined)
    throw invalid('transfer_draft_payee_required', 'A transfer draft pays an account: give destination.accountId or externalAccountId', [
      { field: 'transfer.destination.accountId', message: 'the payee account (acc_, inw_, eba_, ewa_); a toAddress is not screened' },
    ])
  return [accountId]
}
