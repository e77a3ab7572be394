// Conservation under randomness (issue 12, point 11): a seeded random sequence of at least 2 000
// fund-ins, holds, settles, releases, returns (reversals), credit-line draws and repayments, the
// account operations sent in concurrent waves, all through HTTP. An independent model folds what
// the service answered; at the end every balance (GET .../balance) equals the model's, and
// `ledger verify` proves every transaction balanced and every balance equal to its postings, with
// system totals equal to the model's. Set CONSERVATION_SEED to replay a run; the seed is printed.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { runCli, stdoutJson } from '../cli/fixtures/runCli.js'
import { seededRandom } from '../proofs/fixtures/chaos/seededRandom.js'

const SEED = Number(process.env['CONSERVATION_SEED'] ?? Math.floor(Math.random() * 2 ** 31))
const PLAN = { operations: 2_000, accounts: 6, wave: 8, feeBpsPerHour: 2n } as const
t.comment(`conservation seed ${SEED} (CONSERVATION_SEED=${SEED} replays it)`)

const h = await startTestApp(t)
const rng = seededRandom(SEED)
const seedNote = `(seed ${SEED})`

type Hold = { accountId: string; holdId: string; amount: bigint }
type Credit = { accountId: string; reference: string; amount: bigint; returned: boolean }
type Draw = { principal: bigint; fee: bigint }
/** The model: balances per account, open holds, credits, and the system accounts, from the service's answers only. */
const model = {
  available: new Map<string, bigint>(),
  committed: new Map<string, bigint>(),
  holds: [] as Hold[],
  credits: [] as Credit[],
  draws: [] as Draw[],
  /** The outside world in USD (fund-ins, returns) and in USDC (repayments): one ledger account, one balance per currency. */
  world: 0n,
  worldUsdc: 0n,
  clearing: 0n,
  fees: 0n,
  creditLine: 0n,
  treasury: 0n,
}
const add = (m: Map<string, bigint>, id: string, v: bigint) => m.set(id, (m.get(id) ?? 0n) + v)
const counts: Record<string, number> = {}
let references = 0
const count = (name: string) => (counts[name] = (counts[name] ?? 0) + 1)

const post = (url: string, payload?: object) => h.request({ method: 'POST', url, ...(payload ? { payload } : {}) })

async function fundIn(accountId: string): Promise<void> {
  const cents = BigInt(rng.int(1, 500_000))
  const reference = `c${SEED}-${references++}`
  const res = await post(`/v1/sandbox/accounts/${accountId}/fund-in`, {
    amount: `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`,
    reference,
  })
  if (res.statusCode !== 200) throw new Error(`fund-in ${res.statusCode} ${res.body} ${seedNote}`)
  count('fundIn')
  add(model.available, accountId, cents)
  model.world -= cents
  model.credits.push({ accountId, reference, amount: cents, returned: false })
}

async function hold(accountId: string): Promise<void> {
  const amount = BigInt(rng.int(1, 200_000))
  const res = await post(`/v1/accounts/${accountId}/holds`, { currency: 'USD', amount: amount.toString() })
  if (res.statusCode === 422 && res.json().code === 'insufficient_funds') return void count('holdRefused')
  if (res.statusCode !== 201) throw new Error(`hold ${res.statusCode} ${res.body} ${seedNote}`)
  count('hold')
  add(model.available, accountId, -amount)
  add(model.committed, accountId, amount)
  model.holds.push({ accountId, holdId: res.json().id, amount })
}

async function finish(kind: 'settle' | 'release'): Promise<void> {
  const at = rng.int(0, model.holds.length - 1)
  const [h0] = model.holds.splice(at, 1)
  if (!h0) return
  const url =
    kind === 'settle'
      ? `/v1/sandbox/accounts/${h0.accountId}/holds/${h0.holdId}/settle`
      : `/v1/accounts/${h0.accountId}/holds/${h0.holdId}/release`
  const res = await post(url)
  if (res.statusCode !== 200) throw new Error(`${kind} ${res.statusCode} ${res.body} ${seedNote}`)
  count(kind)
  add(model.committed, h0.accountId, -h0.amount)
  // A settled API hold is paid out of the service: to the world (clearing is a transfer's, between balances).
  if (kind === 'settle') model.world += h0.amount
  else add(model.available, h0.accountId, h0.amount)
}

async function returnCredit(): Promise<void> {
  const open = model.credits.filter((c) => !c.returned)
  if (open.length === 0) return
  const credit = rng.pickOne(open)
  credit.returned = true // taken before the request: no other op of the wave returns it too
  const res = await post(`/v1/sandbox/accounts/${credit.accountId}/fund-in/${credit.reference}/return`)
  if (res.statusCode === 422 && res.json().code === 'insufficient_funds') {
    credit.returned = false
    return void count('returnRefused')
  }
  if (res.statusCode !== 200) throw new Error(`return ${res.statusCode} ${res.body} ${seedNote}`)
  count('return')
  add(model.available, credit.accountId, -credit.amount)
  model.world += credit.amount
}

/** Draws and repayments run between waves (the facility decides them in turn; the model keeps their order). */
async function draw(): Promise<void> {
  const principal = BigInt(rng.int(1, 1_000_000))
  const res = await post('/v1/liquidity/facility/draws', { amount: principal.toString() })
  if (res.statusCode !== 201) throw new Error(`draw ${res.statusCode} ${res.body} ${seedNote}`)
  count('draw')
  // Within the first hour: one started hour's fee, rounded half up.
  const fee = (principal * PLAN.feeBpsPerHour * 2n + 10_000n) / 20_000n
  model.draws.push({ principal, fee })
  model.creditLine -= principal
  model.treasury += principal
}

async function repay(): Promise<void> {
  const oldest = model.draws.shift()
  if (!oldest) return
  const res = await post('/v1/liquidity/facility/repayments', { amount: (oldest.principal + oldest.fee).toString() })
  if (res.statusCode !== 201) throw new Error(`repay ${res.statusCode} ${res.body} ${seedNote}`)
  count('repay')
  model.creditLine += oldest.principal
  model.fees += oldest.fee
  model.worldUsdc -= oldest.principal + oldest.fee
}

t.test(`${PLAN.operations} random operations, then every balance and the ledger ${seedNote}`, async (t) => {
  const accounts: string[] = []
  for (let i = 0; i < PLAN.accounts; i++) accounts.push((await post('/v1/balance-accounts', { metadata: { nickname: `c${i}` } })).json().id)
  const treasury = (await post('/v1/balance-accounts/stablecoin', { currency: 'USDC', chain: 'SOLANA' })).json().id as string
  const configured = await h.request({
    method: 'PUT',
    url: '/v1/sandbox/liquidity/facility',
    payload: {
      creditLimit: '1000000000000',
      maximumDrawAmount: '1000000',
      fundingFeeBpsPerHour: String(PLAN.feeBpsPerHour),
      feeCapHours: 24,
    },
  })
  t.equal(configured.statusCode, 200, configured.body)
  t.equal((await h.request({ method: 'PATCH', url: '/v1/liquidity/facility', payload: { payoutTreasuryId: treasury } })).statusCode, 200)

  let sent = 0
  while (sent < PLAN.operations) {
    const wave: Promise<void>[] = []
    for (let i = 0; i < PLAN.wave; i++) {
      const account = rng.pickOne(accounts)
      const roll = rng.next()
      wave.push(
        roll < 0.3
          ? fundIn(account)
          : roll < 0.6
            ? hold(account)
            : roll < 0.75
              ? finish('settle')
              : roll < 0.9
                ? finish('release')
                : returnCredit(),
      )
    }
    await Promise.all(wave)
    sent += wave.length
    const liquidity = rng.next()
    if (liquidity < 0.15) await draw()
    else if (liquidity < 0.25) await repay()
    sent++
  }
  t.comment(`operations: ${JSON.stringify(counts)}`)
  t.ok(sent >= PLAN.operations)

  // The draws reach the treasury through a workflow: wait (bounded) until it shows them all.
  const balanceOf = async (id: string) => {
    const res = await h.request({ method: 'GET', url: `/v1/accounts/${id}/balance` })
    const usd = (res.json().balances as { currency: string; available: { value: string }; committed: { value: string } }[])[0]
    return { available: BigInt(usd?.available.value ?? '0'), committed: BigInt(usd?.committed.value ?? '0') }
  }
  for (let i = 0; i < 200 && (await balanceOf(treasury)).available !== model.treasury; i++) await new Promise((r) => setTimeout(r, 50))
  t.equal((await balanceOf(treasury)).available, model.treasury, `the treasury holds every draw ${seedNote}`)
  for (const id of accounts) {
    t.same(await balanceOf(id), { available: model.available.get(id) ?? 0n, committed: model.committed.get(id) ?? 0n }, `${id} ${seedNote}`)
    t.ok((model.available.get(id) ?? 0n) >= 0n, 'the model never saw a negative balance either')
  }

  const run = await runCli(['ledger', 'verify', '--json', '--sample', 'all'], { DATABASE_URL: h.runtime.databaseUrl })
  t.equal(run.code, 0, `${run.stderr} ${seedNote}`)
  const report = stdoutJson(run) as { consistent: boolean; totals: Record<string, string>[]; discrepancy: unknown }
  t.equal(report.consistent, true, `ledger verify: ${JSON.stringify(report.discrepancy)} ${seedNote}`)
  const usd = report.totals.find((x) => x['currency'] === 'USD')!
  const usdc = report.totals.find((x) => x['currency'] === 'USDC')
  const sum = (m: Map<string, bigint>) => [...m.values()].reduce((a, b) => a + b, 0n)
  t.match(usd, {
    sum: '0',
    world: String(model.world),
    clearing: String(model.clearing),
    balanceAccountsAvailable: String(sum(model.available)),
    balanceAccountsCommitted: String(sum(model.committed)),
  })
  if (counts['draw'])
    t.match(usdc, {
      sum: '0',
      world: String(model.worldUsdc),
      fees: String(model.fees),
      credit_line: String(model.creditLine),
      balanceAccountsAvailable: String(model.treasury),
    })
})
