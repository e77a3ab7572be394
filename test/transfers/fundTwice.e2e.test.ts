// Issue 24, D9: fund-from-balance answers as its description says. The first call that funds a
// transfer answers 200; every later one, sequential or concurrent, is 409 transfer_already_funded,
// and nothing is written twice (one hold, one funding, the balance debited once). A replay with the
// same Idempotency-Key is the idempotency layer's: the original 200.
import t, { type Test } from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { approvedCustomer, availableOf, balanceOf, created, fundIn, usBankAccount, usdBalance } from './transferWorld.js'

const h = await startTestApp(t)
const alice = await approvedCustomer(h)
const bank = await usBankAccount(h, alice)
const usd = await usdBalance(h, alice)
await fundIn(h, usd, '1000.00')

/** Calls made on one transfer, one after another and all at once. */
const CALLS = 20
const AMOUNT_MINOR = 2500n

/** A transfer waiting for its ACH deposit (fundingNeeded), paid from alice's balance below. */
const awaitingDeposit = () =>
  created(h, {
    sourceCustomerId: alice,
    source: { paymentRail: 'ACH', currency: 'USD' },
    destination: { accountId: bank, paymentRail: 'ACH' },
    sourceAmount: AMOUNT_MINOR.toString(),
  })

const fund = (id: string, headers: Record<string, string> = {}) =>
  h.request({ method: 'PATCH', url: `/v1/transfers/${id}/fund-from-balance`, payload: { fundingCustomerId: alice }, headers })

const committedOf = async (id: string) =>
  ((await balanceOf(h, id)) as { balances: { committed: { value: string } }[] }).balances[0]!.committed.value

async function eventsOf(stream: string, type: string): Promise<number> {
  return (await h.runtime.store.readStream(stream)).filter((e) => e.type === type).length
}

function tally(t: Test, answers: { statusCode: number; json(): { code?: string } }[]) {
  const ok = answers.filter((a) => a.statusCode === 200).length
  const already = answers.filter((a) => a.statusCode === 409 && a.json().code === 'transfer_already_funded').length
  t.equal(ok, 1, 'exactly one 200')
  t.equal(already, CALLS - 1, `the other ${CALLS - 1}: 409 transfer_already_funded (${answers.map((a) => a.statusCode).join(',')})`)
}

/** FundsHeld events on the paying account before a test's calls. */
let heldBefore = 0

async function fundedOnce(t: Test, transferId: string, availableBefore: bigint) {
  t.equal(BigInt(await availableOf(h, usd)), availableBefore - AMOUNT_MINOR, 'the balance debited once')
  t.equal((await eventsOf(`account-${usd}`, 'FundsHeld')) - heldBefore, 1, 'one hold')
  t.equal(await eventsOf(`transfer-${transferId}`, 'TransferFunded'), 1, 'one funding')
}

t.test(`${CALLS} sequential calls: one 200, then 409 transfer_already_funded`, async (t) => {
  const transfer = await awaitingDeposit()
  const availableBefore = BigInt(await availableOf(h, usd))
  heldBefore = await eventsOf(`account-${usd}`, 'FundsHeld')
  const answers = []
  for (let i = 0; i < CALLS; i++) answers.push(await fund(transfer.id))
  tally(t, answers)
  await fundedOnce(t, transfer.id, availableBefore)
})

t.test(`${CALLS} concurrent calls: one 200, the rest 409, nothing written twice`, async (t) => {
  const transfer = await awaitingDeposit()
  const availableBefore = BigInt(await availableOf(h, usd))
  heldBefore = await eventsOf(`account-${usd}`, 'FundsHeld')
  const answers = await Promise.all(Array.from({ length: CALLS }, () => fund(transfer.id)))
  tally(t, answers)
  await fundedOnce(t, transfer.id, availableBefore)
  t.equal(BigInt(await committedOf(usd)) % AMOUNT_MINOR, 0n, 'committed holds whole transfers only')
})

t.test('a replay with the same Idempotency-Key answers the original 200', async (t) => {
  const transfer = await awaitingDeposit()
  const key = { 'idempotency-key': `fund-${transfer.id}` }
  const first = await fund(transfer.id, key)
  t.equal(first.statusCode, 200)
  const replay = await fund(transfer.id, key)
  t.equal(replay.statusCode, 200, 'the stored answer')
  t.same(replay.json(), first.json(), 'the same body')
  const other = await fund(transfer.id)
  t.equal(other.statusCode, 409, 'a new request without the key')
  t.equal(other.json().code, 'transfer_already_funded')
})
