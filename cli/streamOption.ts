// The `--stream <name>` option of the audit commands: a stream name of sane length, or a usage error.
import { type CliCommand, usageError } from './command.js'

/** Stream names are `<category>-<id>`; far shorter than this. */
export const MAX_STREAM_NAME_LENGTH = 200

export function streamOption(command: Pick<CliCommand, 'usage'>, value: string | undefined): string | undefined {
  if (value !== undefined && (value.length === 0 || value.length > MAX_STREAM_NAME_LENGTH))
    throw usageError(command, `--stream must be 1 to ${MAX_STREAM_NAME_LENGTH} characters`)
  return value
}
