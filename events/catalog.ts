// The event catalog: every stored event type with its schema and version. Events are validated on
// the way in and parsed (and upcast, when an old version exists) on the way out.
import type { z } from 'zod'
import { organizationEventSchemas } from '../domain/organization/events.js'
import { webhookEndpointEventSchemas } from '../domain/webhook-endpoint/events.js'
import { customerEventSchemas } from '../domain/customer/events.js'
import { documentEventSchemas } from '../domain/document/events.js'
import { termsEventSchemas } from '../domain/terms/events.js'
import { webhookTestEventSchemas } from '../domain/webhook-endpoint/testEvent.js'

type Entry = { schema: z.ZodType<Record<string, unknown>>; version: number }

const catalog = new Map<string, Entry>()
function register(schemas: Record<string, z.ZodType<Record<string, unknown>>>): void {
  for (const [type, schema] of Object.entries(schemas)) {
    if (catalog.has(type)) throw new Error(`Event type ${type} registered twice`)
    catalog.set(type, { schema, version: 1 })
  }
}
register(organizationEventSchemas)
register(webhookEndpointEventSchemas)
register(customerEventSchemas)
register(documentEventSchemas)
register(termsEventSchemas)
register(webhookTestEventSchemas)

export class UnknownEventTypeError extends Error {
  override readonly name = 'UnknownEventTypeError'
}

/** Validates an event's data against its schema; throws on an unknown type or bad data. */
export function parseEventData(type: string, data: unknown): Record<string, unknown> {
  const entry = catalog.get(type)
  if (!entry) throw new UnknownEventTypeError(`Unknown event type ${type}`)
  return entry.schema.parse(data)
}

export function isKnownEventType(type: string): boolean {
  return catalog.has(type)
}
