// The audit export: JSON lines an auditor can verify away from the service (`audit export`, then
// `audit verify --export FILE`). A header line, then each event exactly as stored, in commit order
// (or one stream's revision order). Sealed fields stay ciphertext: the chain covers them so.
import { z } from 'zod'
import type { Position, RecordedEvent } from '../store/port.js'

export const EXPORT_FORMAT = 'payments-audit-export'
export const EXPORT_VERSION = 1

export const EXPORT_LIMITS = {
  /** One line: an event is at most a few hundred kilobytes (the store's bounds), so this is generous. */
  maxLineBytes: 16 * 1024 * 1024,
} as const

export const exportHeaderSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.iso.datetime(),
  store: z.enum(['postgres', 'eventstoredb']),
  stream: z.string().max(200).nullable(),
})
export type ExportHeader = z.infer<typeof exportHeaderSchema>

const exportedEventSchema = z.object({
  position: z.string().max(100),
  stream: z.string().min(1).max(200),
  revision: z.string().regex(/^\d{1,19}$/),
  id: z.string().min(1).max(64),
  type: z.string().min(1).max(200),
  data: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
  recordedAt: z.iso.datetime(),
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
})

export function toExportLine(e: RecordedEvent): Record<string, unknown> {
  return {
    position: e.position,
    stream: e.stream,
    revision: e.revision.toString(),
    id: e.id,
    type: e.type,
    data: e.data,
    metadata: e.metadata,
    recordedAt: e.recordedAt.toISOString(),
    ...(e.hash === undefined ? {} : { hash: e.hash }),
  }
}

/** An exported event back as the store would read it; throws a ZodError naming what is wrong. */
export function fromExportLine(value: unknown): RecordedEvent {
  const line = exportedEventSchema.parse(value)
  return {
    id: line.id,
    stream: line.stream,
    revision: BigInt(line.revision),
    position: line.position as Position,
    type: line.type,
    data: line.data,
    metadata: line.metadata,
    recordedAt: new Date(line.recordedAt),
    ...(line.hash === undefined ? {} : { hash: line.hash }),
  }
}
