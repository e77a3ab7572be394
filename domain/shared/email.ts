// An email address as the API takes it: zod's email format, at most RFC 5321's 254 characters.
import { z } from 'zod'

export const EMAIL_LIMITS = { maxLength: 254 } as const

export const emailSchema = z.email('must be an email address').max(EMAIL_LIMITS.maxLength).describe('Email address')
export type Email = z.infer<typeof emailSchema>
