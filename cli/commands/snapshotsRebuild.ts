// `snapshots rebuild [--stream S | --category C]`: takes snapshots again from the events (each
// stream folded from its first event, its snapshot replaced whatever it was), for one stream, the
// snapshotted streams of one category, or every stored snapshot; a snapshot whose aggregate no
// longer takes any is dropped. Prints a JSON line per stream. Safe while the server runs: a
// snapshot is a cache, and a newer one the server saves meanwhile is just replaced later.
import { parseArgs } from 'node:util'
import {
  createPostgresSnapshotStore,
  deleteSnapshot,
  openSnapshotDatabase,
  snapshotStreams,
} from '../../commands/runtime/postgresSnapshotStore.js'
import { takeSnapshot } from '../../commands/runtime/takeSnapshot.js'
import { aggregateOfCategory } from '../../events/catalog.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { CliError } from '../output.js'

export const SNAPSHOTS_REBUILD_LIMITS = {
  /** Stream names are `<category>-<id>`; far shorter than this. */
  maxStreamNameLength: 500,
  /** Snapshot rows listed per page while rebuilding a category or all. */
  pageSize: 500,
} as const

const categoryOf = (stream: string) => stream.slice(0, Math.max(0, stream.indexOf('-')))

/** The aggregate of `category` when it takes snapshots. */
function snapshotted(category: string) {
  const aggregate = aggregateOfCategory(category)
  return aggregate?.decider.snapshot ? aggregate : undefined
}

export const snapshotsRebuild: CliCommand = {
  words: ['snapshots', 'rebuild'],
  usage: 'snapshots rebuild [--stream <stream> | --category <category>]   (every stored snapshot when neither)',
  summary: 'take snapshots again from the events (one stream, a category, or all stored)',
  parse(argv) {
    const { values } = parseOrUsage(snapshotsRebuild, () =>
      parseArgs({
        args: argv,
        options: { stream: { type: 'string' }, category: { type: 'string' } },
        strict: true,
        allowPositionals: false,
      }),
    )
    const { stream, category } = values
    if (stream !== undefined && category !== undefined) throw usageError(snapshotsRebuild, 'give --stream or --category, not both')
    for (const name of [stream, category])
      if (name !== undefined && (name.length === 0 || name.length > SNAPSHOTS_REBUILD_LIMITS.maxStreamNameLength))
        throw usageError(snapshotsRebuild, `a name of 1 to ${SNAPSHOTS_REBUILD_LIMITS.maxStreamNameLength} characters`)
    if (stream !== undefined && categoryOf(stream) === '') throw usageError(snapshotsRebuild, 'a stream is named <category>-<id>')
    const selected = stream !== undefined ? categoryOf(stream) : category
    const target = selected === undefined ? undefined : snapshotted(selected)
    if (selected !== undefined && !target)
      throw new CliError('not_snapshotted', `The aggregate of category ${JSON.stringify(selected)} takes no snapshots`, {
        category: selected,
      })
    return async ({ runtime, out, log }) => {
      const db = openSnapshotDatabase(runtime.pool)
      const snapshots = createPostgresSnapshotStore(db)
      const rebuild = async (name: string) => {
        const aggregate = snapshotted(categoryOf(name))
        if (!aggregate) {
          await deleteSnapshot(db, name)
          await out.line({ stream: name, dropped: true, reason: 'its aggregate takes no snapshots' })
          return
        }
        log.info({ stream: name }, 'taking a snapshot')
        const taken = await takeSnapshot(runtime.store, snapshots, aggregate.decider, name)
        if (taken) await out.line(taken)
        else {
          await deleteSnapshot(db, name)
          await out.line({ stream: name, dropped: true, reason: 'the stream has no events' })
        }
      }
      if (stream !== undefined && target) {
        const taken = await takeSnapshot(runtime.store, snapshots, target.decider, stream)
        if (!taken) throw new CliError('stream_not_found', `Stream ${stream} has no events`, { statusCode: 404 })
        await out.line(taken)
        return
      }
      let after: string | undefined
      for (;;) {
        const page = await snapshotStreams(db, {
          ...(category === undefined ? {} : { category }),
          ...(after ? { after } : {}),
          limit: SNAPSHOTS_REBUILD_LIMITS.pageSize,
        })
        for (const name of page) await rebuild(name)
        if (page.length < SNAPSHOTS_REBUILD_LIMITS.pageSize) break
        after = page[page.length - 1]
      }
    }
  },
}
