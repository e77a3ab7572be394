// `data seal-existing`: the one-off migration for databases from before issue 11. Seals in place
// every customer state, endpoint secret (read model and delivery snapshots), document content and
// idempotent response still stored in clear; prints how many rows it scanned and sealed per table.
// Idempotent (a second run seals nothing), safe beside a running server, and it never touches the
// event log: old events are read through the event codec as stored.
import { parseArgs } from 'node:util'
import { sealExistingReadModels } from '../../projections/sealExisting.js'
import { sealStoredResponses } from '../../server/idempotency/sealedResponse.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'

export const dataSealExisting: CliCommand = {
  words: ['data', 'seal-existing'],
  usage: 'data seal-existing',
  summary: 'seal the read models, documents and idempotent responses stored in clear before encryption (idempotent)',
  parse(argv) {
    const { positionals } = parseOrUsage(dataSealExisting, () =>
      parseArgs({ args: argv, options: {}, strict: true, allowPositionals: true }),
    )
    if (positionals.length > 0) throw usageError(dataSealExisting, 'no arguments')
    return async ({ runtime, out, log }) => {
      log.info('sealing what is stored in clear')
      const tables = await sealExistingReadModels(runtime.db, runtime.protection)
      tables['idempotency_keys.response_body'] = await sealStoredResponses(runtime.db, runtime.protection)
      await out.document({ tables })
    }
  },
}
