// `projections rollback <name> [--json]`: brings back the tables the projection's last rebuild (or
// rollback) replaced, caught up to the head first, and switched in as a rebuild's are
// (projections/runtime/rollbackProjection.ts); the tables it replaces are kept in turn. Refused, with
// nothing changed, when no version is kept or the kept one cannot be brought back exactly (exit 1), or
// while a rebuild or rollback of the projection runs (exit 3).
import { parseArgs } from 'node:util'
import { allProjectors } from '../../projections/allProjectors.js'
import { type RollbackResult, rollbackProjection } from '../../projections/runtime/rollbackProjection.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { asRefusal } from '../projectionRefusals.js'
import { duration, progressLines } from '../progressLines.js'

const names = () => allProjectors.map((p) => p.name)

function resultLines(r: RollbackResult): string[] {
  return [
    `${r.projection} rolled back to the version kept at ${r.restored.keptAt} (then at ${r.restored.keptPosition}), ` +
      `caught up over ${r.events.toLocaleString('en-US')} events in ${duration(r.durationMs / 1000)}, now at ${r.position}`,
    `  the replaced tables are kept in ${r.previous.schema}: \`projections rollback ${r.projection}\` again brings them back`,
  ]
}

export const projectionsRollback: CliCommand = {
  words: ['projections', 'rollback'],
  usage: `projections rollback <name> [--json]   (name: ${names().join(' | ')})`,
  summary: 'switch a projection back to the tables its last rebuild replaced, caught up to the head first',
  parse(argv) {
    const { values, positionals } = parseOrUsage(projectionsRollback, () =>
      parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: true }),
    )
    if (positionals.length !== 1) throw usageError(projectionsRollback, 'one projection name')
    const name = positionals[0]
    const projector = allProjectors.find((p) => p.name === name)
    if (!projector)
      throw usageError(projectionsRollback, `unknown projection ${JSON.stringify(name)}; valid names: ${names().join(', ')}`, {
        validNames: names(),
      })
    const json = values.json ?? false
    return async ({ runtime, out, log }) => {
      log.info({ projection: projector.name }, 'rolling back')
      const onProgress = progressLines({ operation: 'rollback', store: runtime.store, out, json })
      let result: RollbackResult
      try {
        result = await rollbackProjection(runtime.store, runtime.db, projector, { protection: runtime.protection }, { onProgress })
      } catch (error) {
        throw asRefusal(error)
      }
      if (json) await out.document(result)
      else for (const line of resultLines(result)) await out.text(line)
    }
  },
}
