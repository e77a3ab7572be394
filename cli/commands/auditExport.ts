// `audit export [--stream S]`: the stored events as JSON lines for an auditor to verify elsewhere
// (`audit verify --export FILE`): a header line, then every event exactly as stored (sealed fields as
// ciphertext, with its hash), in commit order or one stream's revision order. Read-only.
import { parseArgs } from 'node:util'
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportHeader, toExportLine } from '../../events/integrity/exportFormat.js'
import { storedEventPages } from '../../events/integrity/storedOrder.js'
import { type CliCommand, parseOrUsage } from '../command.js'
import { streamOption } from '../streamOption.js'
import { CliError } from '../output.js'

export const auditExport: CliCommand = {
  words: ['audit', 'export'],
  usage: 'audit export [--stream <stream>]   (JSON lines on stdout: redirect them to a file)',
  summary: 'print the stored events with their hashes as JSON lines, for `audit verify --export` away from the service',
  parse(argv) {
    const { values } = parseOrUsage(auditExport, () =>
      parseArgs({ args: argv, options: { stream: { type: 'string' } }, strict: true, allowPositionals: false }),
    )
    const stream = streamOption(auditExport, values.stream)
    return async ({ runtime, out }) => {
      const header: ExportHeader = {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        exportedAt: new Date().toISOString(),
        store: runtime.storedEvents.kind,
        stream: stream ?? null,
      }
      await out.line(header)
      let exported = 0
      for await (const page of storedEventPages(runtime.storedEvents, { stream })) {
        for (const event of page) await out.line(toExportLine(event))
        exported += page.length
      }
      if (stream !== undefined && exported === 0) throw new CliError('stream_not_found', `Stream ${stream} has no events`)
    }
  },
}
