// Text an operator gives for an audit record (a reason, an actor): trimmed, bounded, and printable,
// since it is read back in terminals and logs (no control characters, no bidi overrides, no unpaired
// surrogates). A usage error names the flag otherwise.
import { type CliCommand, usageError } from './command.js'

const UNPRINTABLE =
  /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

export function auditText(
  command: Pick<CliCommand, 'usage'>,
  flag: string,
  value: string | undefined,
  maxLength: number,
): string | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (text.length === 0 || text.length > maxLength || UNPRINTABLE.test(text)) {
    throw usageError(command, `--${flag} must be 1 to ${maxLength} printable characters`)
  }
  return text
}
