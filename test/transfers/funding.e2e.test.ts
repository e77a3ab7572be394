// Funding through HTTP: fund-from-balance on a transfer awaiting its deposit (a hold on the paying
// customer's balance, settled at completion, released on failure or cancel), its refusals (nothing
// changes), and many transfers funded at once from one balance: never overdrawn, never a 409.
import t from 'tap'
import { runCli } from '../cli/fixtures/runCli.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'
import {
  advance,
  advanceUntil,
  approvedCustomer,
  availableOf,
  balanceOf,
  created,
  createTransfer,
  eventually,
  fundIn,
  stablecoinBalance,
  usBankAccount,
  usdBalance,
} from './transferWorld.js'

const h = await startTestApp(t)
const alice = await approvedCustomer(h)
const payer = await approvedCustomer(h)
const bank = await usBankAccount(h, alice)
const payerUsdc = await stablecoinBalance(h, payer, 'USDC', 'SOLANA')
const SOLANA_TO = 'So11111111111111111111111111111111111111112'
const fund = (id: string, payload: object) => h.request({ method: 'PATCH', url: `/v1/transfers/${id}/fund-from-balance`, payload })
const cryptoPayout = (sourceAmount: string) => ({
  sourceCustomerId: alice,
  source: { paymentRail: 'SOLANA', currency: 'USDC' },
  destination: { paymentRail: 'SOLANA', currency: 'USDC', toAddress: SOLANA_TO },
  sourceAmount,
})
const committedOf = async (id: string) =>
  ((await balanceOf(h, id)) as { balances: { committed: { value: string } }[] }).balances[0]!.committed.value

// A stablecoin balance is funded through a credit-line-free path: a sandbox deposit into a USDC
// transfer that lands on the payer's balance.
async function fundUsdc(accountId: string, amountMinor: string) {
  const funding = await created(h, {
    sourceCustomerId: payer,
    source: { paymentRail: 'SOLANA', currency: 'USDC' },
    destination: { accountId },
    sourceAmount: amountMinor,
  })
  await h.request({ method: 'POST', url: `/v1/sandbox/transfers/${funding.id}/simulate-deposit` })
  await advanceUntil(h, funding.id, 'COMPLETED')
  await eventually(
    () => availableOf(h, accountId),
    (v) => BigInt(v) >= BigInt(amountMinor),
    'the payer’s USDC balance',
  )
}

t.test('fund-from-balance holds the payer’s balance, settles it when the payout completes', async (t) => {
  await fundUsdc(payerUsdc, '50000000')
  const transfer = await created(h, cryptoPayout('20000000'))
  t.equal(transfer.fundingNeeded, true)
  const funded = await fund(transfer.id, { fundingCustomerId: payer, note: 'paid by the parent company' })
  t.equal(funded.statusCode, 200)
  t.match(funded.json(), { status: 'PROCESSING', fundingNeeded: false, source: { accountId: payerUsdc } })
  t.equal(await availableOf(h, payerUsdc), '30000000', 'held')
  t.equal(await committedOf(payerUsdc), '20000000')
  t.equal((await fund(transfer.id, { fundingCustomerId: payer })).statusCode, 409, 'funded once')
  await advanceUntil(h, transfer.id, 'COMPLETED')
  await eventually(
    () => committedOf(payerUsdc),
    (v) => v === '0',
    'the hold settled',
  )
  t.equal(await availableOf(h, payerUsdc), '30000000', 'paid out')
})

t.test('refusals change nothing', async (t) => {
  const before = await availableOf(h, payerUsdc)
  const big = await created(h, cryptoPayout('999000000'))
  const insufficient = await fund(big.id, { fundingCustomerId: payer })
  t.equal(insufficient.statusCode, 422)
  t.equal(insufficient.json().code, 'insufficient_funds')
  t.equal(await availableOf(h, payerUsdc), before, 'no hold')
  t.equal((await h.request({ method: 'POST', url: `/v1/transfers/${big.id}/cancel` })).json().status, 'CANCELLED', 'still cancellable')
  const noAccount = await fund((await created(h, cryptoPayout('100'))).id, { fundingCustomerId: alice })
  t.equal(noAccount.statusCode, 422)
  t.equal(noAccount.json().code, 'no_balance_account')
  const other = await h.newOrganization('Other')
  const foreign = await fund((await created(h, cryptoPayout('100'))).id, {
    fundingCustomerId: (await createIndividual(h, {}, { apiKey: other.apiKey })).id,
  })
  t.equal(foreign.statusCode, 404, 'a customer of another organization does not exist here')
  const draft = await created(h, { ...cryptoPayout('100'), confirm: false })
  t.equal((await fund(draft.id, { fundingCustomerId: payer })).statusCode, 409, 'a draft is submitted first')
})

t.test('a funded transfer that fails releases the hold', async (t) => {
  const before = BigInt(await availableOf(h, payerUsdc))
  const usd = await usdBalance(h, payer)
  await fundIn(h, usd, '100.00')
  // Review after funding, then refunded: back to the payer's balance.
  const reviewed = await created(h, {
    sourceCustomerId: alice,
    source: { paymentRail: 'ACH', currency: 'USD' },
    destination: { accountId: bank, paymentRail: 'ACH' },
    sourceAmount: '3131',
  })
  t.equal((await fund(reviewed.id, { fundingCustomerId: payer })).json().status, 'PROCESSING')
  t.equal(await availableOf(h, usd), String(10000 - 3131))
  t.equal((await advance(h, reviewed.id)).json().status, 'IN_REVIEW')
  const refund = await h.request({ method: 'POST', url: `/v1/transfers/${reviewed.id}/refund` })
  t.match(refund.json(), { status: 'REVERSED', returnedToAccountId: usd })
  await eventually(
    () => availableOf(h, usd),
    (v) => v === '10000',
    'released',
  )
  t.equal(BigInt(await availableOf(h, payerUsdc)), before, 'the other balance untouched')
})

t.test('50 transfers funded at once from one balance: never overdrawn, never a 409', async (t) => {
  const usd = await usdBalance(h, payer)
  await fundIn(h, usd, '30.00')
  const transfers = await Promise.all(
    Array.from({ length: 50 }, () =>
      created(h, {
        sourceCustomerId: alice,
        source: { paymentRail: 'ACH', currency: 'USD' },
        destination: { accountId: bank, paymentRail: 'ACH' },
        sourceAmount: '100',
      }),
    ),
  )
  const results = await Promise.all(transfers.map((x) => fund(x.id, { fundingCustomerId: payer, accountId: usd })))
  const codes = results.map((r) => r.statusCode)
  t.equal(codes.filter((c) => c === 200).length, 30, 'exactly what the balance covers is funded')
  t.equal(codes.filter((c) => c === 422).length, 20, 'the rest are 422 insufficient_funds')
  t.notOk(codes.includes(409), 'no 409')
  t.equal(await availableOf(h, usd), '0')
  t.equal(await committedOf(usd), '3000')

  // And balance-sourced creates racing: the same.
  await fundIn(h, usd, '10.00')
  const creates = await Promise.all(
    Array.from({ length: 30 }, () =>
      createTransfer(h, { source: { accountId: usd }, destination: { accountId: bank, paymentRail: 'ACH' }, sourceAmount: '100' }),
    ),
  )
  const statuses = creates.map((r) => r.statusCode)
  t.equal(statuses.filter((c) => c === 201).length, 10, 'ten created and funded')
  t.equal(statuses.filter((c) => c === 422).length, 20, 'twenty refused with insufficient_funds')
  t.notOk(statuses.includes(409), 'no 409')
  t.equal(await availableOf(h, usd), '0', 'never negative')
})

t.test('ledger verify is consistent after all of the above', async (t) => {
  const verify = await runCli(['ledger', 'verify', '--json'], { DATABASE_URL: h.runtime.databaseUrl })
  t.equal(verify.code, 0, verify.stderr)
  t.match(JSON.parse(verify.stdout), { consistent: true })
})
