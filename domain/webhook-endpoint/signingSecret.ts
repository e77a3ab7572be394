// Signing secrets per Standard Webhooks: `whsec_` + base64 of random bytes.
import { secureRandomBytes } from '../secureRandom.js'

export const SIGNING_SECRET_BYTES = 32

export function generateSigningSecret(): string {
  return `whsec_${secureRandomBytes(SIGNING_SECRET_BYTES).toString('base64')}`
}
