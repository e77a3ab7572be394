// The event codec: sensitive fields (marked in the catalog's zod schemas) are sealed on append and
// opened on read, whichever adapter stores them. A sealed event names its subject in
// metadata.dataSubject; the subject is the aggregate (a customer's events, persons included, use
// the customer's key), so erasing it shreds all of them at once, or its organization where the
// aggregate's descriptor says so (webhook endpoints' signing secrets). Events from before encryption
// carry no subject: they are read as stored (the upcaster), and as ERASED once their aggregate's
// key is shredded.
import { dataSubjectOf, eventSchemaOf } from '../catalog.js'
import { hasSensitive } from '../../domain/shared/sensitive/index.js'
import type { NewEvent, RecordedEvent } from '../store/port.js'
import type { DataProtection } from './dataProtection.js'

/** The aggregate id of a `<category>-<id>` stream: the subject and the record of its events. */
export function aggregateIdOf(stream: string): string {
  const dash = stream.indexOf('-')
  return dash < 0 ? stream : stream.slice(dash + 1)
}

function sensitiveSchemaOf(type: string) {
  const schema = eventSchemaOf(type)
  return schema && hasSensitive(schema) ? schema : undefined
}

export type EventCodec = {
  encode(stream: string, event: NewEvent): Promise<NewEvent>
  /**
   * Opens a batch: one key lookup for all the batch's subjects. `lazy`: each event's data is opened
   * when first read (a subscriber passes over the many events it does not handle without opening
   * them); a failure to open then surfaces where the data is read.
   */
  decode(events: RecordedEvent[], options?: { lazy?: boolean }): Promise<RecordedEvent[]>
}

/** The event with `data` opened on first read, then kept. */
function withLazyData(event: RecordedEvent, open: () => Record<string, unknown>): RecordedEvent {
  const { data: _sealed, ...rest } = event
  let opened: Record<string, unknown> | undefined
  return Object.defineProperty(rest, 'data', {
    enumerable: true,
    get: () => (opened ??= open()),
  }) as RecordedEvent
}

const subjectOf = (event: RecordedEvent) => event.metadata.dataSubject ?? aggregateIdOf(event.stream)

const CUSTOMER_ID = /^cus_[0-9a-z]{26}$/

/** The aggregate, its organization, or the customer its data names, as its descriptor says (domain/aggregate.ts). */
function subjectForNew(stream: string, event: NewEvent): string {
  const rule = dataSubjectOf(event.type)
  if (rule === 'aggregate') return aggregateIdOf(stream)
  const customerId = rule === 'customer' ? event.data['customerId'] : undefined
  if (typeof customerId === 'string' && CUSTOMER_ID.test(customerId)) return customerId
  return event.metadata.organizationId ?? aggregateIdOf(stream)
}

export function eventCodec(protection: DataProtection): EventCodec {
  return {
    async encode(stream, event) {
      const schema = sensitiveSchemaOf(event.type)
      if (!schema) return event
      const subject = subjectForNew(stream, event)
      const data = await protection.seal(schema, event.data, subject, stream)
      if (data === event.data) return event
      return { ...event, data, metadata: { ...event.metadata, dataSubject: subject } }
    },
    async decode(events, options = {}) {
      const sensitive = events.filter((e) => sensitiveSchemaOf(e.type) !== undefined)
      if (sensitive.length === 0) return events
      const keys = await protection.keys.keysForReading(sensitive.map(subjectOf))
      return events.map((event) => {
        const schema = sensitiveSchemaOf(event.type)
        if (!schema) return event
        const key = keys.get(subjectOf(event))!
        if (event.metadata.dataSubject === undefined && key.state !== 'shredded') return event // stored before encryption
        const open = () => protection.openWith(key, schema, event.data, event.stream)
        return options.lazy ? withLazyData(event, open) : { ...event, data: open() }
      })
    },
  }
}
