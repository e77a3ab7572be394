// The organization a stored event was recorded for (its metadata), for the consumers that act for
// it (workflows, timers): every command stamps it, so its absence is a broken event, never a default.
import type { RecordedEvent } from './store/port.js'

export function organizationOfEvent(event: Pick<RecordedEvent, 'id' | 'type' | 'metadata'>): string {
  const organizationId = event.metadata.organizationId
  if (!organizationId) throw new Error(`${event.type} ${event.id} carries no organization id in its metadata`)
  return organizationId
}
