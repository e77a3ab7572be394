// API key format, generation and hashing. Keys are high-entropy random strings, so a plain
// SHA-256 is the right hash (no password stretching needed); only the hash is ever stored.
import { createHash } from 'node:crypto'
import { secureRandomBytes } from '../secureRandom.js'
import type { Environment } from '../shared/environment.js'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
export const KEY_SECRET_LENGTH = 32
export const MAX_KEY_LENGTH = 128

export const KEY_PREFIXES = {
  sandbox: 'sk_sandbox_',
  production: 'sk_live_',
} as const

/** Agent keys (spec: Authentication 2): an agent's limited authority, never a platform key. */
export const AGENT_KEY_PREFIXES = { sandbox: 'sk_sandbox_agent_', production: 'sk_live_agent_' } as const

function randomSecret(): string {
  const bytes = secureRandomBytes(KEY_SECRET_LENGTH)
  let secret = ''
  for (let i = 0; i < KEY_SECRET_LENGTH; i++) secret += BASE62[bytes[i]! % 62]
  return secret
}

export function generateApiKey(environment: Environment): string {
  return `${KEY_PREFIXES[environment]}${randomSecret()}`
}

export function generateAgentKey(environment: Environment): string {
  return `${AGENT_KEY_PREFIXES[environment]}${randomSecret()}`
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

/**
 * What a platform key may do: FULL (every operation of its organization, as every key did before
 * roles existed), AUDITOR (reads only: GET routes and /v1/audit; server/auth/auditorScope.ts) or
 * OPERATOR (the deployment's operator routes under /v1/operator and nothing of any tenant;
 * server/auth/operatorScope.ts).
 */
export const API_KEY_ROLES = ['FULL', 'AUDITOR', 'OPERATOR'] as const
export type ApiKeyRole = (typeof API_KEY_ROLES)[number]

export type KeyKind = { environment: Environment; agent: boolean } | undefined

export function keyKind(key: string): KeyKind {
  if (key.startsWith(AGENT_KEY_PREFIXES.sandbox)) return { environment: 'sandbox', agent: true }
  if (key.startsWith(AGENT_KEY_PREFIXES.production)) return { environment: 'production', agent: true }
  if (key.startsWith(KEY_PREFIXES.sandbox)) return { environment: 'sandbox', agent: false }
  if (key.startsWith(KEY_PREFIXES.production)) return { environment: 'production', agent: false }
  return undefined
}
