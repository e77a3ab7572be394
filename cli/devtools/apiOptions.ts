// Where the developer tools (`listen`, `trigger`) find the API and their key: --base-url and --api-key,
// else PAYMENTS_BASE_URL and PAYMENTS_API_KEY. Sandbox keys only: these tools create test data and
// loopback endpoints, which have no place in a live organization (the Stripe CLI's listen is test-mode too).
import { keyKind } from '../../domain/organization/apiKeys.js'
import { type CliCommand, usageError } from '../command.js'
import type { ApiClientOptions } from './apiClient.js'

export const DEFAULT_BASE_URL = 'http://localhost:3000'
export const API_KEY_VARIABLE = 'PAYMENTS_API_KEY'
export const BASE_URL_VARIABLE = 'PAYMENTS_BASE_URL'

/** parseArgs options both tools take. */
export const API_OPTIONS = {
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
} as const

export function apiClientOptions(
  command: Pick<CliCommand, 'usage'>,
  values: { 'api-key'?: string | undefined; 'base-url'?: string | undefined },
  env: NodeJS.ProcessEnv = process.env,
): ApiClientOptions {
  const apiKey = values['api-key'] ?? env[API_KEY_VARIABLE]
  if (!apiKey) throw usageError(command, `an API key is required: --api-key sk_sandbox_... or ${API_KEY_VARIABLE}`)
  const kind = keyKind(apiKey)
  if (!kind || kind.agent || kind.environment !== 'sandbox') {
    throw usageError(command, 'a sandbox platform key (sk_sandbox_...) is required: these tools create test data and loopback endpoints')
  }
  const baseUrl = values['base-url'] ?? env[BASE_URL_VARIABLE] ?? DEFAULT_BASE_URL
  if (!isHttpUrl(baseUrl)) throw usageError(command, `--base-url must be an http or https URL, not ${JSON.stringify(baseUrl)}`)
  return { apiKey, baseUrl }
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password
  } catch {
    return false
  }
}
