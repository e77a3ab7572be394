// The outcome of checking one input value: its normalized form, or the typed validation error (a 422
// once mapped) whose one detail names the field and says precisely what is wrong with it.
import type { z } from 'zod'
import { type DomainError, invalid } from '../errors.js'

export type Checked<T> = { ok: true; value: T } | { ok: false; error: DomainError }

export const accepted = <T>(value: T): Checked<T> => ({ ok: true, value })

/** `code` is the stable machine code (`invalid_iban`); `message` completes "`field` ...". */
export function refused(code: string, field: string, message: string): { ok: false; error: DomainError } {
  return { ok: false, error: invalid(code, `${field} ${message}`, [{ field, message }]) }
}

/** The first detail's message of a refusal: what a zod refinement reports for the same check. */
export const refusalMessage = (error: DomainError): string => error.details[0]?.message ?? error.message

/** A zod superRefine that reports a check's refusal with the same precise message. */
export const refineWith =
  (check: (value: string) => Checked<unknown>) =>
  (value: string, ctx: z.core.$RefinementCtx<string>): void => {
    const checked = check(value)
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: refusalMessage(checked.error), input: value })
  }
