// Helpers of the fixed-route tests, all through HTTP: create a route, simulate a deposit at it.
import type { Client } from '../harness/httpClient.js'

type Key = { apiKey?: string }

export type FixedRoute = Record<string, unknown> & {
  id: string
  status: string
  enabled: boolean
  sourceAccount: Record<string, unknown> & { depositInstructions: Record<string, string | null> | null; walletAddress: string | null }
  sweepTargetAccount: Record<string, unknown> | null
}

export type Sweep = {
  accountId: string
  transferId: string
  sweepReferenceId: string
  status: string
  rail: string
  held: { code: string } | null
}

export const createRoute = (h: Client, customerId: string, body: Record<string, unknown>, opts: Key = {}) =>
  h.request({ method: 'POST', url: `/v1/customers/${customerId}/fixed-routes`, payload: body, ...opts })

export async function fixedRoute(h: Client, customerId: string, body: Record<string, unknown>, opts: Key = {}): Promise<FixedRoute> {
  const res = await createRoute(h, customerId, body, opts)
  if (res.statusCode !== 201) throw new Error(`create fixed route: ${res.statusCode} ${res.body}`)
  return res.json() as FixedRoute
}

export const simulate = (h: Client, routeId: string, body: Record<string, unknown>, opts: Key = {}) =>
  h.request({ method: 'POST', url: `/v1/sandbox/fixed-routes/${routeId}/simulate-deposit`, payload: body, ...opts })

export async function swept(h: Client, routeId: string, body: Record<string, unknown>, opts: Key = {}): Promise<Sweep> {
  const res = await simulate(h, routeId, body, opts)
  if (res.statusCode !== 200) throw new Error(`simulate deposit: ${res.statusCode} ${res.body}`)
  return res.json() as Sweep
}
