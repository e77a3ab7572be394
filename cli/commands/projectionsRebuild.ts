// `projections rebuild [name] [--json]`: replays $all into fresh tables beside the live ones, which keep
// serving, switches them in and keeps the replaced tables for `projections rollback`
// (projections/runtime/rebuildProjection.ts); all projections, one after the other, when no name.
// Progress lines on stderr as it goes; the result in plain lines, or one JSON document with --json.
// A rebuild or rollback of the same projection already running refuses this one (exit 3).
import { parseArgs } from 'node:util'
import { allProjectors } from '../../projections/allProjectors.js'
import { type RebuildResult, rebuildProjection } from '../../projections/runtime/rebuildProjection.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { asRefusal } from '../projectionRefusals.js'
import { duration, progressLines } from '../progressLines.js'

const names = () => allProjectors.map((p) => p.name)

function resultLines(r: RebuildResult): string[] {
  const rate = `${r.eventsPerSecond.toLocaleString('en-US')} events/s`
  return [
    `${r.projection} rebuilt: ${r.events.toLocaleString('en-US')} events in ${duration(r.durationMs / 1000)} (${rate}), at ${r.position}`,
    `  the replaced tables are kept in ${r.previous.schema} (at ${r.previous.position}): \`projections rollback ${r.projection}\``,
  ]
}

export const projectionsRebuild: CliCommand = {
  words: ['projections', 'rebuild'],
  usage: `projections rebuild [name] [--json]   (name: ${names().join(' | ')}; all when omitted)`,
  summary: 'rebuild one projection, or all, from the first event without downtime; keeps the replaced tables for a rollback',
  parse(argv) {
    const { values, positionals } = parseOrUsage(projectionsRebuild, () =>
      parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: true }),
    )
    if (positionals.length > 1) throw usageError(projectionsRebuild, 'at most one projection name')
    const name = positionals[0]
    const selected = name === undefined ? allProjectors : allProjectors.filter((p) => p.name === name)
    if (selected.length === 0)
      throw usageError(projectionsRebuild, `unknown projection ${JSON.stringify(name)}; valid names: ${names().join(', ')}`, {
        validNames: names(),
      })
    const json = values.json ?? false
    return async ({ runtime, out, log }) => {
      const results: RebuildResult[] = []
      // One at a time: each rebuild briefly pauses its live projector (or the appends) while it switches tables.
      for (const projector of selected) {
        log.info({ projection: projector.name }, 'rebuilding')
        const onProgress = progressLines({ operation: 'rebuild', store: runtime.store, out, json })
        const ctx = { protection: runtime.protection }
        let result: RebuildResult
        try {
          result = await rebuildProjection(runtime.store, runtime.db, projector, ctx, { onProgress })
        } catch (error) {
          throw asRefusal(error, { rebuilt: results.map((r) => r.projection) })
        }
        results.push(result)
        if (!json) for (const line of resultLines(result)) await out.text(line)
      }
      if (json) await out.document(results)
    }
  },
}
