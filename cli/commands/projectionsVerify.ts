// `projections verify [name]`: rebuilds each projection (or the one named) from position zero into
// shadow tables and compares them row by row with the live ones (projections/runtime/
// verifyProjection.ts). Prints the comparison; exits 1 when any row differs. Safe beside a running
// server: it writes nothing the server reads and pauses no projector.
import { parseArgs } from 'node:util'
import { allProjectors } from '../../projections/allProjectors.js'
import { verifyProjections } from '../../projections/runtime/verifyProjection.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { CliError } from '../output.js'

const names = () => allProjectors.map((p) => p.name)

export const projectionsVerify: CliCommand = {
  words: ['projections', 'verify'],
  usage: `projections verify [name]    (name: ${names().join(' | ')}; all when omitted)`,
  summary: 'rebuild projections into shadow tables and diff them row by row against the live ones',
  parse(argv) {
    const { positionals } = parseOrUsage(projectionsVerify, () =>
      parseArgs({ args: argv, options: {}, strict: true, allowPositionals: true }),
    )
    if (positionals.length > 1) throw usageError(projectionsVerify, 'at most one projection name')
    const name = positionals[0]
    const selected = name === undefined ? allProjectors : allProjectors.filter((p) => p.name === name)
    if (selected.length === 0)
      throw usageError(projectionsVerify, `unknown projection ${JSON.stringify(name)}; valid names: ${names().join(', ')}`, {
        validNames: names(),
      })
    return async ({ runtime, out, log }) => {
      log.info({ projections: selected.map((p) => p.name) }, 'verifying')
      const projections = await verifyProjections(
        runtime.store,
        runtime.databaseUrl,
        selected,
        { protection: runtime.protection },
        { mode: runtime.projectionMode },
      )
      const differing = projections.filter((p) => p.differences > 0)
      await out.document({ consistent: differing.length === 0, projections })
      if (differing.length > 0) {
        throw new CliError(
          'projections_differ',
          `live rows differ from a rebuild in ${differing.map((p) => `${p.projection} (${p.differences})`).join(', ')}`,
          {
            projections: differing.map((p) => p.projection),
          },
        )
      }
    }
  },
}
