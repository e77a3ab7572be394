// Holds on balance accounts through HTTP: one hot account that every request holds against (its
// stream decides them in turn; TigerBeetle's hot-account case), and 100 accounts taken in turn.
// Each account is funded first with far more than the run can hold, so every answer is a 201.
import type { ServerChild } from './child.js'
import type { HttpTarget } from './httpBench.js'

export const HOLDS_BENCH_PLAN = {
  accounts: 100,
  seconds: 5,
  /** Major units funded per account: more than any run holds at 1 minor unit a request. */
  fundedMajor: '100000000.00',
} as const

const HOLD_BODY = JSON.stringify({ currency: 'USD', amount: '1' })

async function post(api: ServerChild, auth: Record<string, string>, path: string, body: object): Promise<{ id?: string }> {
  const response = await fetch(`${api.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as { id?: string }
}

async function fundedAccount(api: ServerChild, auth: Record<string, string>): Promise<string> {
  const { id } = await post(api, auth, '/v1/balance-accounts', { metadata: { nickname: 'bench' } })
  await post(api, auth, `/v1/sandbox/accounts/${id}/fund-in`, { amount: HOLDS_BENCH_PLAN.fundedMajor })
  return id!
}

/** The two targets: every hold on one account, and holds on 100 accounts in turn. */
export async function holdTargets(api: ServerChild, auth: Record<string, string>): Promise<{ hot: HttpTarget; spread: HttpTarget }> {
  const accounts: string[] = []
  for (let i = 0; i < HOLDS_BENCH_PLAN.accounts; i++) accounts.push(await fundedAccount(api, auth))
  const target = (paths: string[]): HttpTarget => ({ url: api.baseUrl, paths, method: 'POST', headers: auth, body: HOLD_BODY })
  return { hot: target([`/v1/accounts/${accounts[0]}/holds`]), spread: target(accounts.map((id) => `/v1/accounts/${id}/holds`)) }
}
