// The console's session: an API key exchanged once for an httpOnly cookie (server/console/), read back and ended here.
// The key goes to the service once, in the sign-in body, and is never kept by the page.
import { PaymentsApiError } from '../../sdk/src/index.js'
import { api } from './api.js'

export type Session = {
  organizationId: string
  organizationName: string
  environment: 'sandbox' | 'production'
  role: 'FULL' | 'AUDITOR' | 'OPERATOR'
  keyId: string
  keyHint: string
  expiresAt: string
}

/** The signed-in session, or undefined when there is none (401). */
export async function currentSession(): Promise<Session | undefined> {
  try {
    return (await api.GET('/console/session', {})).data
  } catch (error) {
    if (error instanceof PaymentsApiError && error.status === 401) return undefined
    throw error
  }
}

export async function signIn(apiKey: string): Promise<Session> {
  return (await api.POST('/console/session', { body: { apiKey } })).data
}

export async function signOut(): Promise<void> {
  await api.DELETE('/console/session', {})
}
