// Row shape of es_events and its mapping to a RecordedEvent.
import type { EventMetadata, RecordedEvent } from '../port.js'
import { encodePosition } from '../positions.js'

export type EventRow = {
  global_position_text: string
  transaction_id_text: string
  event_id: string
  stream_name: string
  stream_revision_text: string
  event_type: string
  data: Record<string, unknown>
  metadata: EventMetadata
  recorded_at: Date
  event_hash: string | null
}

// Output names differ from the columns: ORDER BY on a bare name would sort the text copy.
export const EVENT_COLUMNS =
  'global_position::text AS global_position_text, transaction_id::text AS transaction_id_text, event_id, stream_name, ' +
  'stream_revision::text AS stream_revision_text, event_type, data, metadata, recorded_at, event_hash'

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    stream: row.stream_name,
    revision: BigInt(row.stream_revision_text),
    position: encodePosition(row.transaction_id_text, row.global_position_text),
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
    ...(row.event_hash === null ? {} : { hash: row.event_hash }),
  }
}
