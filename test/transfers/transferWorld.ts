// Helpers of the transfer tests, all through HTTP: an APPROVED customer with the capabilities asked
// for, balance and external accounts, sandbox fund-ins, and driving a transfer's rails step by step.
import type { Client, RequestOptions } from '../harness/httpClient.js'
import { completeIndividualBody, createIndividual } from '../customers/fixtures.js'

export const ALL_CAPABILITIES = [
  'USD_ACH_PAYIN',
  'USD_ACH_PAYOUT',
  'USD_WIRE_PAYIN',
  'USD_WIRE_PAYOUT',
  'USD_BALANCE',
  'SWIFT_PAYIN',
  'SWIFT_PAYOUT',
  'STABLECOIN_PAYIN',
  'STABLECOIN_PAYOUT',
  'STABLECOIN_SWAPS',
  'EUR_FX_PAYOUT',
  'MXN_FX_PAYOUT',
  'GBP_FX_PAYOUT',
]

type Key = { apiKey?: string }

async function ok<T>(h: Client, what: string, options: RequestOptions, status = 200): Promise<T> {
  const res = await h.request(options)
  if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`)
  return res.json() as T
}

/** A customer reviewed APPROVED by the sandbox, having requested `capabilities`. */
export async function approvedCustomer(h: Client, capabilities: string[] = ALL_CAPABILITIES, opts: Key = {}): Promise<string> {
  const { id } = await createIndividual(h, {}, opts)
  const body = { ...(await completeIndividualBody(h, id)), requestedCapabilities: capabilities }
  await ok(h, 'verification', { method: 'POST', url: `/v1/customers/${id}/verification?submit=true`, payload: body, ...opts })
  await ok(
    h,
    'review',
    { method: 'POST', url: `/v1/sandbox/customers/${id}/simulate-review`, payload: { outcome: 'APPROVED' }, ...opts },
    202,
  )
  return id
}

export async function usdBalance(h: Client, customerId: string | null, opts: Key = {}): Promise<string> {
  const body = customerId ? { customerId } : {}
  return (await ok<{ id: string }>(h, 'balance account', { method: 'POST', url: '/v1/balance-accounts', payload: body, ...opts }, 201)).id
}

export async function stablecoinBalance(h: Client, customerId: string | null, currency = 'USDC', chain = 'SOLANA', opts: Key = {}) {
  const payload = { ...(customerId ? { customerId } : {}), currency, chain }
  return (
    await ok<{ id: string }>(h, 'stablecoin account', { method: 'POST', url: '/v1/balance-accounts/stablecoin', payload, ...opts }, 201)
  ).id
}

export async function usBankAccount(h: Client, customerId: string, opts: Key = {}): Promise<string> {
  const payload = {
    customerId,
    accountOwnerName: 'Ada Lovelace',
    bankName: 'Chase',
    accountNumber: '000123456789',
    routingNumber: '021000021',
  }
  return (await ok<{ id: string }>(h, 'bank account', { method: 'POST', url: '/v1/external-bank-accounts', payload, ...opts }, 201)).id
}

export async function ibanAccount(h: Client, customerId: string, opts: Key = {}): Promise<string> {
  const payload = { customerId, accountOwnerName: 'Ada Lovelace', currency: 'EUR', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' }
  return (await ok<{ id: string }>(h, 'iban account', { method: 'POST', url: '/v1/external-bank-accounts', payload, ...opts }, 201)).id
}

export async function fundIn(h: Client, accountId: string, amount: string, opts: Key = {}) {
  await ok(h, 'fund-in', { method: 'POST', url: `/v1/sandbox/accounts/${accountId}/fund-in`, payload: { amount }, ...opts })
}

export type Transfer = Record<string, unknown> & {
  id: string
  status: string
  flow: string
  currentLegIndex: number
  fundingNeeded: boolean
  legs: Record<string, unknown>[]
}

export const createTransfer = (h: Client, body: Record<string, unknown>, opts: Key & { headers?: Record<string, string> } = {}) =>
  h.request({ method: 'POST', url: '/v1/transfers', payload: body, ...opts })

export async function created(h: Client, body: Record<string, unknown>, opts: Key = {}): Promise<Transfer> {
  return ok<Transfer>(h, 'create transfer', { method: 'POST', url: '/v1/transfers', payload: body, ...opts }, 201)
}

export const simulateDeposit = (h: Client, id: string, body: Record<string, unknown> = {}, opts: Key = {}) =>
  ok<Transfer>(h, 'simulate deposit', { method: 'POST', url: `/v1/sandbox/transfers/${id}/simulate-deposit`, payload: body, ...opts })

export const advance = (h: Client, id: string, opts: Key = {}) =>
  h.request({ method: 'POST', url: `/v1/sandbox/transfers/${id}/advance`, ...opts })

/**
 * Advances until the status is `status` (at most `maxSteps` steps); the transfer then. A step the
 * transfer workflow takes meanwhile (it credits a balance destination when its leg starts) leaves the
 * rails nothing to do: a 409 transfer_not_advanceable then reads the transfer as it is.
 */
export async function advanceUntil(h: Client, id: string, status: string, maxSteps = 12, opts: Key = {}): Promise<Transfer> {
  for (let i = 0; i < maxSteps; i++) {
    const res = await advance(h, id, opts)
    const notAdvanceable = res.statusCode === 409 && (res.json() as { code?: string }).code === 'transfer_not_advanceable'
    if (res.statusCode !== 200 && !notAdvanceable) throw new Error(`advance ${id}: ${res.statusCode} ${res.body}`)
    const t = notAdvanceable ? await getTransfer(h, id, opts) : (res.json() as Transfer)
    if (t.status === status) return t
    if (notAdvanceable) await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`transfer ${id} did not reach ${status} in ${maxSteps} steps`)
}

export const balanceOf = async (h: Client, accountId: string, opts: Key = {}) =>
  ok<Record<string, unknown>>(h, 'balance', { method: 'GET', url: `/v1/accounts/${accountId}/balance`, ...opts })

export async function getTransfer(h: Client, id: string, opts: Key = {}): Promise<Transfer> {
  return ok<Transfer>(h, 'get transfer', { method: 'GET', url: `/v1/transfers/${id}`, ...opts })
}

/** Polls `read` until `check` holds (workflows run after the command that caused them). */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: T | undefined
  while (Date.now() < deadline) {
    try {
      last = await read()
      if (check(last)) return last
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${what}: not reached in ${timeoutMs} ms (last: ${JSON.stringify(last)?.slice(0, 500)})`)
}

/** The available balance of an account's one currency, as a minor-unit string. */
export async function availableOf(h: Client, accountId: string): Promise<string> {
  const b = (await balanceOf(h, accountId)) as { balances: { available: { value: string } }[] }
  return b.balances[0]?.available.value ?? '0'
}
