// `audit verify [--stream S] [--export FILE] [--json]`: recomputes every stored event's hash from its
// content and its stream's previous hash (events/integrity/), and checks each stream's revisions run
// without a gap, in the store or in an `audit export` file (no database needed then). Names the first
// altered, missing, reordered or unchained event and exits 1; otherwise prints what it verified. Plain
// lines for a person by default, one JSON document with --json. Read-only: safe beside a running server.
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { type ChainProblem, type ChainReport, chainVerifier } from '../../events/integrity/chainVerifier.js'
import { EXPORT_LIMITS, exportHeaderSchema, fromExportLine } from '../../events/integrity/exportFormat.js'
import { storedEventPages } from '../../events/integrity/storedOrder.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { streamOption } from '../streamOption.js'
import { CliError, type Output } from '../output.js'

const MAX_PATH_LENGTH = 4_096

const problemLine = (p: ChainProblem) =>
  `  ${p.kind}: ${p.stream} revision ${p.revision}${p.eventId ? ` (event ${p.eventId})` : ''}` +
  `${p.position ? ` at position ${p.position}` : ''}: ${p.detail}`

function lines(report: ChainReport, source: string): string[] {
  const counts =
    `${report.events} events in ${report.streams} streams; ${report.verified} hash links recomputed, ` +
    `${report.beforeChain} stored before the chain`
  if (report.consistent) return [`audit verified (${source}): ${counts}; through position ${report.through ?? '(start)'}`]
  const shown = report.problems.length < report.problemCount ? ` (the first ${report.problems.length} shown)` : ''
  return [`AUDIT PROBLEM (${source}): ${report.problemCount} problems${shown} in ${counts}`, ...report.problems.map(problemLine)]
}

async function print(out: Output, json: boolean | undefined, report: ChainReport, source: string): Promise<void> {
  if (json) await out.document({ source, ...report })
  else for (const line of lines(report, source)) await out.text(line)
  const first = report.problems[0]
  if (first)
    throw new CliError('audit_chain_broken', `first problem: ${first.kind} ${first.stream} revision ${first.revision}`, { problem: first })
}

/** The export file's events through the verifier; a malformed line is an error naming its number. */
async function verifyExport(file: string): Promise<ChainReport> {
  const verifier = chainVerifier()
  const input = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })
  let number = 0
  try {
    for await (const line of input) {
      number += 1
      if (line.length > EXPORT_LIMITS.maxLineBytes) throw new CliError('export_invalid', `line ${number} is longer than the limit`)
      let value: unknown
      try {
        value = JSON.parse(line)
        if (number === 1) exportHeaderSchema.parse(value)
        else verifier.add(fromExportLine(value))
      } catch (error) {
        const why = error instanceof z.ZodError ? z.prettifyError(error) : error instanceof SyntaxError ? 'not JSON' : String(error)
        throw new CliError('export_invalid', `line ${number} of the export: ${number === 1 ? 'not an audit export header: ' : ''}${why}`)
      }
    }
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError('export_unreadable', `cannot read ${file}: ${(error as Error).message}`)
  } finally {
    input.close()
  }
  if (number === 0) throw new CliError('export_invalid', 'the export is empty')
  return verifier.report()
}

export const auditVerify: CliCommand = {
  words: ['audit', 'verify'],
  usage: 'audit verify [--stream <stream>] [--export <file>] [--json]',
  summary:
    "recompute every event's hash and each stream's chain, in the store or an export; names the first altered, missing or reordered event",
  parse(argv) {
    const { values } = parseOrUsage(auditVerify, () =>
      parseArgs({
        args: argv,
        options: { stream: { type: 'string' }, export: { type: 'string' }, json: { type: 'boolean' } },
        strict: true,
        allowPositionals: false,
      }),
    )
    const { json } = values
    const stream = streamOption(auditVerify, values.stream)
    const file = values.export
    if (file !== undefined) {
      if (file.length === 0 || file.length > MAX_PATH_LENGTH) throw usageError(auditVerify, '--export must name a file')
      if (stream !== undefined) throw usageError(auditVerify, '--stream reads the store; export one stream with audit export --stream')
      return { offline: async ({ out }) => print(out, json, await verifyExport(file), `export ${file}`) }
    }
    return async ({ runtime, out }) => {
      const verifier = chainVerifier()
      for await (const page of storedEventPages(runtime.storedEvents, { stream })) for (const event of page) verifier.add(event)
      await print(out, json, verifier.report(), stream === undefined ? 'store' : `stream ${stream}`)
    }
  },
}
