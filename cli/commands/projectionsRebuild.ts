// `projections rebuild [name]`: replays $all into fresh tables and swaps them in while the live
// ones keep serving (see projections/runtime/rebuildProjection.ts); all projections when no name.
import { parseArgs } from 'node:util'
import { allProjectors } from '../../projections/allProjectors.js'
import { type RebuildResult, rebuildProjection } from '../../projections/runtime/rebuildProjection.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'

const names = () => allProjectors.map((p) => p.name)

export const projectionsRebuild: CliCommand = {
  words: ['projections', 'rebuild'],
  usage: `projections rebuild [name]   (name: ${names().join(' | ')}; all when omitted)`,
  summary: 'rebuild one projection, or all, from the first event without downtime',
  parse(argv) {
    const { positionals } = parseOrUsage(projectionsRebuild, () =>
      parseArgs({ args: argv, options: {}, strict: true, allowPositionals: true }),
    )
    if (positionals.length > 1) throw usageError(projectionsRebuild, 'at most one projection name')
    const name = positionals[0]
    const selected = name === undefined ? allProjectors : allProjectors.filter((p) => p.name === name)
    if (selected.length === 0)
      throw usageError(projectionsRebuild, `unknown projection ${JSON.stringify(name)}; valid names: ${names().join(', ')}`, {
        validNames: names(),
      })
    return async ({ runtime, out, log }) => {
      const results: RebuildResult[] = []
      // One at a time: each rebuild briefly pauses its live projector while it swaps tables.
      for (const projector of selected) {
        log.info({ projection: projector.name }, 'rebuilding')
        results.push(await rebuildProjection(runtime.store, runtime.db, projector, { protection: runtime.protection }))
      }
      await out.document(results)
    }
  },
}
