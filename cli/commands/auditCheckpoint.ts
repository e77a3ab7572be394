// `audit checkpoint`: signs a checkpoint of the event log's Merkle tree now, if it grew since the last
// one (the server also does so on its timer, AUDIT_CHECKPOINT_INTERVAL_MS), and prints the latest
// checkpoint as JSON: the file an auditor keeps and later gives `audit verify --checkpoint`.
import { parseArgs } from 'node:util'
import { latestCheckpoint } from '../../events/integrity/checkpointSealer.js'
import { sealAuditCheckpoint } from '../../server/audit/auditCheckpoints.js'
import { type CliCommand, parseOrUsage } from '../command.js'
import { CliError } from '../output.js'

export const auditCheckpoint: CliCommand = {
  words: ['audit', 'checkpoint'],
  usage: 'audit checkpoint   (JSON on stdout: redirect it to a file for audit verify --checkpoint)',
  summary: "sign a checkpoint of the event log's Merkle tree as the sealer left it, and print the latest checkpoint",
  parse(argv) {
    parseOrUsage(auditCheckpoint, () => parseArgs({ args: argv, options: {}, strict: true, allowPositionals: false }))
    return async ({ runtime, out, log }) => {
      const sealed = await sealAuditCheckpoint(runtime.db, runtime.auditSealing)
      const checkpoint = sealed ?? (await latestCheckpoint(runtime.db))
      if (!checkpoint) throw new CliError('no_checkpoint', 'the Merkle tree is empty: the sealer has not sealed any event yet')
      log.info(
        { treeSize: checkpoint.treeSize, new: sealed !== undefined },
        sealed ? 'checkpoint signed' : 'the tree has not grown: the latest checkpoint',
      )
      await out.document(checkpoint)
    }
  },
}
