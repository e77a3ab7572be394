// A consumer's failure as short text fit for the status table, /health's neighbours and logs:
// what failed and where, never the data that made it fail (a poison event may carry a tax id).
import { ZodError } from 'zod'
import { ConsumerFailedError } from './consumerFailedError.js'

export const FAILURE_TEXT_LIMITS = {
  maxLength: 300,
  /** Issues of a schema error named in the text. */
  maxIssues: 3,
} as const

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** A path of field names; anything else (a record's key is data) is shown as […]. */
function fieldPath(path: readonly PropertyKey[]): string {
  return (
    path
      .map((segment) =>
        typeof segment === 'number' ? `[${segment}]` : typeof segment === 'string' && IDENTIFIER.test(segment) ? `.${segment}` : '[…]',
      )
      .join('')
      .replace(/^\./, '') || '(root)'
  )
}

function isPostgresError(error: unknown): error is Error & { code: string } {
  return (
    error instanceof Error && 'code' in error && typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code) && 'severity' in error
  )
}

/** Quoted parts of a message are where libraries put values ('invalid input syntax for type uuid: "x"'). */
function withoutQuotedValues(message: string): string {
  return message.replace(/"[^"]*"|'[^']*'|`[^`]*`/g, '"…"')
}

function bounded(text: string): string {
  // Control characters and lone surrogates out, so the text is safe in a log line and a text column.
  const clean = text.replace(/[\u0000-\u001f\u007f\ud800-\udfff]/g, '?')
  return clean.length > FAILURE_TEXT_LIMITS.maxLength ? `${clean.slice(0, FAILURE_TEXT_LIMITS.maxLength - 1)}…` : clean
}

export function describeFailure(error: unknown): string {
  // Which consumer of the group, then its own error.
  if (error instanceof ConsumerFailedError) return bounded(`${error.consumer}: ${describeFailure(error.cause)}`)
  if (error instanceof ZodError) {
    const issues = error.issues.slice(0, FAILURE_TEXT_LIMITS.maxIssues).map((i) => `${fieldPath(i.path)}: ${i.code}`)
    const more =
      error.issues.length > FAILURE_TEXT_LIMITS.maxIssues ? ` (+${error.issues.length - FAILURE_TEXT_LIMITS.maxIssues} more)` : ''
    return bounded(`event data does not match its schema: ${issues.join('; ')}${more}`)
  }
  if (isPostgresError(error)) return bounded(`PostgreSQL ${error.code}: ${withoutQuotedValues(error.message)}`)
  if (error instanceof Error) return bounded(`${error.name}: ${withoutQuotedValues(error.message)}`)
  return bounded(`non-error thrown: ${typeof error}`)
}
