// `audit verify [--stream S] [--export FILE] [--checkpoint FILE [--public-key K]] [--json]`: recomputes
// every stored event's hash from its content and its stream's previous hash (events/integrity/), and
// checks each stream's revisions run without a gap, in the store or in an `audit export` file (no
// database needed then). With a checkpoint, also checks its signature and recomputes the Merkle root
// over the events it sealed: that catches a stream's deleted tail or a rewrite with fresh hashes. Names
// the first problem and exits 1; otherwise prints what it verified. Plain lines for a person by
// default, one JSON document with --json. Read-only: safe beside a running server.
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { type ChainProblem, type ChainReport, chainVerifier } from '../../events/integrity/chainVerifier.js'
import { type CheckpointChecker, type CheckpointReport, checkpointChecker } from '../../events/integrity/checkpointCheck.js'
import type { CheckpointRecord } from '../../events/integrity/checkpointRecord.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { parsePublicKey, readCheckpointFile } from '../checkpointFile.js'
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

function checkpointLines(report: CheckpointReport, trust: string): string[] {
  const head = `checkpoint of ${report.treeSize} events (root ${report.rootHash}, sealed ${report.sealedAt}, key ${report.keyId}, ${trust})`
  if (report.consistent) return [`${head}: signature valid, root recomputed over the first ${report.treeSize} events`]
  return [`CHECKPOINT PROBLEM: ${head}: ${report.problem}`]
}

type Verified = { chain: ChainReport; checkpoint?: { report: CheckpointReport; trust: string } }

async function print(out: Output, json: boolean | undefined, verified: Verified, source: string): Promise<void> {
  const { chain, checkpoint } = verified
  if (json)
    await out.document({ source, ...chain, ...(checkpoint ? { checkpoint: { ...checkpoint.report, trust: checkpoint.trust } } : {}) })
  else {
    for (const line of lines(chain, source)) await out.text(line)
    if (checkpoint) for (const line of checkpointLines(checkpoint.report, checkpoint.trust)) await out.text(line)
  }
  const first = chain.problems[0]
  if (first)
    throw new CliError('audit_chain_broken', `first problem: ${first.kind} ${first.stream} revision ${first.revision}`, { problem: first })
  if (checkpoint && !checkpoint.report.consistent)
    throw new CliError('audit_checkpoint_mismatch', checkpoint.report.problem ?? 'the checkpoint does not match the log')
}

/** The checks one pass over the events feeds: the chain always, the checkpoint when one was given. */
function verifiers(checkpoint: { record: CheckpointRecord; key: Buffer; trust: string } | undefined) {
  const chain = chainVerifier()
  const tree: CheckpointChecker | undefined = checkpoint ? checkpointChecker(checkpoint.record, checkpoint.key) : undefined
  return {
    add(event: RecordedEvent) {
      chain.add(event)
      tree?.add(event)
    },
    report: (): Verified => ({
      chain: chain.report(),
      ...(tree && checkpoint ? { checkpoint: { report: tree.report(), trust: checkpoint.trust } } : {}),
    }),
  }
}

/** The export file's events through the verifiers; a malformed line is an error naming its number. */
async function verifyExport(file: string, verifier: ReturnType<typeof verifiers>): Promise<Verified> {
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
  usage: 'audit verify [--stream <stream>] [--export <file>] [--checkpoint <file> [--public-key <key>]] [--json]',
  summary:
    "recompute every event's hash and each stream's chain, and a checkpoint's Merkle root, in the store or an export; " +
    'names the first altered, missing or reordered event',
  parse(argv) {
    const { values } = parseOrUsage(auditVerify, () =>
      parseArgs({
        args: argv,
        options: {
          stream: { type: 'string' },
          export: { type: 'string' },
          checkpoint: { type: 'string' },
          'public-key': { type: 'string' },
          json: { type: 'boolean' },
        },
        strict: true,
        allowPositionals: false,
      }),
    )
    const { json } = values
    const stream = streamOption(auditVerify, values.stream)
    const file = values.export
    const checkpointFile = values.checkpoint
    for (const [name, path] of [
      ['--export', file],
      ['--checkpoint', checkpointFile],
    ] as const)
      if (path !== undefined && (path.length === 0 || path.length > MAX_PATH_LENGTH))
        throw usageError(auditVerify, `${name} must name a file`)
    if (checkpointFile !== undefined && stream !== undefined)
      throw usageError(auditVerify, '--checkpoint seals the whole log in commit order: it cannot be checked on one stream')
    if (values['public-key'] !== undefined && checkpointFile === undefined) throw usageError(auditVerify, '--public-key needs --checkpoint')
    const pinned = values['public-key'] === undefined ? undefined : parsePublicKey(values['public-key'])
    /** The checkpoint and the key it is checked with: pinned, else this deployment's (online) or its own (offline, said so). */
    const checkpointWith = (deploymentKey: Buffer | undefined) => {
      if (checkpointFile === undefined) return undefined
      const record = readCheckpointFile(checkpointFile)
      if (pinned) return { record, key: pinned, trust: 'the --public-key given' }
      if (deploymentKey) return { record, key: deploymentKey, trust: "this deployment's signing key" }
      return { record, key: parsePublicKey(record.publicKey), trust: 'the key in the checkpoint itself: pin it with --public-key' }
    }
    if (file !== undefined) {
      if (stream !== undefined) throw usageError(auditVerify, '--stream reads the store; export one stream with audit export --stream')
      return {
        offline: async ({ out }) => print(out, json, await verifyExport(file, verifiers(checkpointWith(undefined))), `export ${file}`),
      }
    }
    return async ({ runtime, out }) => {
      const verifier = verifiers(checkpointWith(runtime.auditSealing.signer.publicKeyRaw))
      for await (const page of storedEventPages(runtime.storedEvents, { stream })) for (const event of page) verifier.add(event)
      await print(out, json, verifier.report(), stream === undefined ? 'store' : `stream ${stream}`)
    }
  },
}
