// A checkpoint's webhook copies (issue 29): one `audit.checkpoint_sealed` message for each
// organization with an enabled endpoint, stored in the checkpoint's own transaction. A checkpoint is
// a signature over events, not an event (appending it would make the log seal itself forever), so its
// message id is derived from the tree size and the organization instead: a retry never mints a second.
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { CheckpointRecord } from '../../events/integrity/checkpointRecord.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { RetrySchedule } from '../dispatcher/retrySchedule.js'
import { buildEnvelope } from '../envelope.js'
import { type NewMessage, storeMessages } from '../subscriber/storeMessages.js'

export const CHECKPOINT_MESSAGE_LIMITS = { maxOrganizations: 100_000 } as const

/** A UUID-shaped id from a name (RFC 4122 layout, version nibble 5): the same checkpoint and organization give the same id. */
function nameBasedId(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex')
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

export async function storeCheckpointMessages(
  trx: Kysely<ReadDatabase>,
  checkpoint: CheckpointRecord,
  schedule: RetrySchedule,
): Promise<number> {
  const organizations = await trx
    .selectFrom('webhook_delivery_endpoints')
    .select('organization_id')
    .distinct()
    .where('disabled', '=', false)
    .where('deleted', '=', false)
    .orderBy('organization_id')
    .limit(CHECKPOINT_MESSAGE_LIMITS.maxOrganizations)
    .execute()
  const sealedAt = new Date(checkpoint.sealedAt)
  const messages: NewMessage[] = organizations.map(({ organization_id: organizationId }) => {
    const { envelope, body } = buildEnvelope({
      storedEventId: nameBasedId(`audit-checkpoint:${checkpoint.treeSize}:${organizationId}`),
      recordedAt: sealedAt,
      organizationId,
      event: { type: 'audit.checkpoint_sealed', data: { ...checkpoint }, tags: [] },
    })
    return { id: envelope.id, organizationId, eventType: envelope.type, body, tags: [], targetEndpointId: null, createdAt: sealedAt }
  })
  return storeMessages(trx, messages, schedule)
}
