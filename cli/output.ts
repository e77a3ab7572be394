// What the CLI writes: JSON on stdout (one document, or JSON lines for streams) and JSON errors on
// stderr, so scripts can parse both and diagnostics never mix into the results; a long command's
// progress lines go to stderr too.
import { DomainError } from '../domain/errors.js'
import { toApiError } from '../http/domainErrors.js'

/** busy: another operation holds what the command needs (a rebuild of the same projection); nothing was done, try again later. */
export const EXIT = { ok: 0, failure: 1, usage: 2, busy: 3 } as const

/** A failure the operator can act on; `error` is a stable snake_case code. */
export class CliError extends Error {
  override readonly name = 'CliError'
  constructor(
    readonly error: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message)
  }
}

/** Printed as a JSON error, then the usage text in plain words for the person at the terminal. */
export class UsageError extends CliError {
  constructor(
    message: string,
    readonly usage: string,
    extra: Record<string, unknown> = {},
  ) {
    super('usage_error', message, extra, EXIT.usage)
  }
}

/** JSON with the types the event store uses: bigint as a decimal string, Date as ISO 8601. */
function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value
}

async function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  // Honour back-pressure so a long event stream piped into a slow reader is not buffered whole.
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve))
}

export type Output = {
  /** One JSON document (the whole result of a command). */
  document(value: unknown): Promise<void>
  /** One JSON line of a stream of results. */
  line(value: unknown): Promise<void>
  /** Plain lines for a person, for a command that offers them besides its JSON (`ledger verify` without --json). */
  text(text: string): Promise<void>
  /** A progress line of a long command, on stderr: the result on stdout stays one document. */
  progress(text: string): Promise<void>
}

export const stdoutOutput: Output = {
  document: (value) => write(process.stdout, `${JSON.stringify(value, replacer, 2)}\n`),
  line: (value) => write(process.stdout, `${JSON.stringify(value, replacer)}\n`),
  text: (text) => write(process.stdout, `${text}\n`),
  progress: (text) => write(process.stderr, `${text}\n`),
}

export function errorBody(error: unknown): { body: Record<string, unknown>; exitCode: number } {
  if (error instanceof CliError) return { body: { error: error.error, message: error.message, ...error.extra }, exitCode: error.exitCode }
  if (error instanceof DomainError) {
    // The same status the HTTP API would answer, so operators read one error model.
    const api = toApiError(error)
    return {
      body: {
        error: error.code,
        message: error.message,
        kind: error.kind,
        statusCode: api.statusCode,
        ...(api.details ? { details: api.details } : {}),
      },
      exitCode: EXIT.failure,
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { body: { error: 'internal_error', message }, exitCode: EXIT.failure }
}

export async function printError(body: Record<string, unknown>): Promise<void> {
  await write(process.stderr, `${JSON.stringify(body, replacer)}\n`)
}
