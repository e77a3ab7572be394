// `snapshots status`: per stream category, how many snapshots are stored, their oldest and newest
// codec versions against the version the aggregate's codec writes now (rows of another version are
// ignored by commands until replaced: `snapshots rebuild --category C`), and the oldest taken.
import { parseArgs } from 'node:util'
import { openSnapshotDatabase, snapshotStatus } from '../../commands/runtime/postgresSnapshotStore.js'
import { aggregateOfCategory } from '../../events/catalog.js'
import { type CliCommand, parseOrUsage } from '../command.js'

export const snapshotsStatus: CliCommand = {
  words: ['snapshots', 'status'],
  usage: 'snapshots status',
  summary: 'print the stored snapshots per category, with their codec versions',
  parse(argv) {
    parseOrUsage(snapshotsStatus, () => parseArgs({ args: argv, options: {}, strict: true, allowPositionals: false }))
    return async ({ runtime, out }) => {
      const categories = await snapshotStatus(openSnapshotDatabase(runtime.pool))
      await out.document({
        categories: categories.map((c) => ({
          ...c,
          // null: the aggregate takes no snapshots (any more); its rows are dropped by a rebuild.
          codecVersion: aggregateOfCategory(c.category)?.decider.snapshot?.version ?? null,
          oldestTakenAt: c.oldestTakenAt.toISOString(),
        })),
      })
    }
  },
}
