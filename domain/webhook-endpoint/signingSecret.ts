// Signing secrets per Standard Webhooks: `whsec_` + base64 of random bytes.
import { randomBytes } from 'node:crypto'

export const SIGNING_SECRET_BYTES = 32

export function generateSigningSecret(): string {
  return `whsec_${randomBytes(SIGNING_SECRET_BYTES).toString('base64')}`
}
