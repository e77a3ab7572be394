// `events stream <stream>`: one stream's events as JSON lines, for auditors. Data is printed as
// recorded (opened by the event codec, not upcast); signing secrets and key hashes are redacted and
// every sensitive field masked, and an erased customer's fields read [erased].
import { parseArgs } from 'node:util'
import { STORE_LIMITS } from '../../events/store/port.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { CliError } from '../output.js'
import { maskSensitive, redactSecrets } from '../../events/protection/redaction.js'

/** Stream names are `<category>-<id>`; far shorter than this. */
const MAX_STREAM_NAME_LENGTH = 200

export const eventsStream: CliCommand = {
  words: ['events', 'stream'],
  usage: 'events stream <stream>   (for example organization-org_...)',
  summary: "print a stream's events as JSON lines, secrets redacted",
  parse(argv) {
    const { positionals } = parseOrUsage(eventsStream, () => parseArgs({ args: argv, options: {}, strict: true, allowPositionals: true }))
    const stream = positionals[0]
    if (positionals.length !== 1 || !stream || stream.length > MAX_STREAM_NAME_LENGTH)
      throw usageError(eventsStream, 'exactly one stream name is required')
    return async ({ runtime, out }) => {
      let from = 0n
      let printed = 0
      // Paged by revision so a long stream is never held in memory whole.
      for (;;) {
        const page = await runtime.store.readStream(stream, { fromRevision: from, maxCount: STORE_LIMITS.maxReadCount })
        for (const e of page) {
          await out.line({
            id: e.id,
            stream: e.stream,
            revision: e.revision.toString(),
            position: e.position,
            type: e.type,
            data: redactSecrets(maskSensitive(e.type, e.data)),
            metadata: redactSecrets(e.metadata),
            recordedAt: e.recordedAt.toISOString(),
          })
        }
        printed += page.length
        if (page.length < STORE_LIMITS.maxReadCount) break
        from = page[page.length - 1]!.revision + 1n
      }
      if (printed === 0) throw new CliError('stream_not_found', `Stream ${stream} has no events`, { statusCode: 404 })
    }
  },
}
