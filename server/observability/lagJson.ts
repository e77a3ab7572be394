// A lag report (events/consumers/consumerLag.ts) as JSON, the same for GET /health and
// `projections status --json`: times as ISO 8601 strings.
import { z } from 'zod'
import type { LagReport } from '../../events/consumers/consumerLag.js'

export const consumerLagJsonSchema = z.object({
  name: z.string().describe("The consumer's checkpoint name"),
  group: z.string(),
  position: z.string().nullable(),
  lagEvents: z.number().int().describe('Events it handles past its checkpoint'),
  lagSeconds: z.number().describe('Age of the oldest of them'),
  lagIsLowerBound: z.boolean().describe('The bounded scan stopped before the head: the lag is at least these figures'),
  checkpointMovedAt: z.string().nullable(),
  stalled: z.boolean().describe('Behind, and its checkpoint has not moved for 60 s'),
})

export const lagJsonSchema = z.object({
  head: z.string().nullable(),
  headRecordedAt: z.string().nullable(),
  headStalenessSeconds: z.number().nullable().describe('Now minus the newest event'),
  scannedEvents: z.number().int(),
  complete: z.boolean(),
  consumers: z.array(consumerLagJsonSchema),
})

export function toLagJson(report: LagReport): z.infer<typeof lagJsonSchema> {
  return {
    ...report,
    headRecordedAt: report.headRecordedAt?.toISOString() ?? null,
    consumers: report.consumers.map((c) => ({ ...c, checkpointMovedAt: c.checkpointMovedAt?.toISOString() ?? null })),
  }
}
