// The spec's failure rules and the status table through HTTP: a failure before funds is FAILED
// (transfer.failed), a problem after funds is IN_REVIEW (never FAILED), a platform-held draft cannot
// be submitted, cancel only before funding, reversal credits the balance back; each refusal of the
// table is a 409 naming both states; bad requests are 4xx that change nothing.
import t from 'tap'
import { runCli } from '../cli/fixtures/runCli.js'
import { startTestApp } from '../harness/testApp.js'
import {
  advance,
  advanceUntil,
  approvedCustomer,
  availableOf,
  createTransfer,
  created,
  eventually,
  fundIn,
  getTransfer,
  simulateDeposit,
  usBankAccount,
  usdBalance,
} from './transferWorld.js'

const h = await startTestApp(t)
const alice = await approvedCustomer(h)
const bob = await approvedCustomer(h)
const aliceUsd = await usdBalance(h, alice)
const bobUsd = await usdBalance(h, bob)
const bank = await usBankAccount(h, alice)
await fundIn(h, aliceUsd, '5000.00')
const achPayout = (sourceAmount: string, extra: Record<string, unknown> = {}) => ({
  sourceCustomerId: alice,
  source: { paymentRail: 'ACH', currency: 'USD' },
  destination: { accountId: bank, paymentRail: 'ACH' },
  sourceAmount,
  ...extra,
})
const post = (url: string, payload?: object) => h.request({ method: 'POST', url, ...(payload ? { payload } : {}) })

t.test('a failure before funds arrive is FAILED', async (t) => {
  const transfer = await created(h, achPayout('1313'))
  const failed = (await advance(h, transfer.id)).json()
  t.equal(failed.status, 'FAILED', 'the sandbox trigger 13.13 fails it before funding')
  t.match(failed.failureReason, { code: 'rail_rejected' })
  t.ok(
    failed.legs.every((l: { status: string }) => l.status === 'FAILED'),
    'its legs failed',
  )
  const again = await simulateDeposit(h, transfer.id).catch((e: Error) => e.message)
  t.match(String(again), /409/, 'a deposit after the failure is refused')
})

t.test('a problem after funds arrive is IN_REVIEW, never FAILED', async (t) => {
  const transfer = await created(h, achPayout('3131'))
  await simulateDeposit(h, transfer.id)
  const reviewed = (await advance(h, transfer.id)).json()
  t.equal(reviewed.status, 'IN_REVIEW', 'the sandbox trigger 31.31 reviews it after funding')
  t.match(reviewed.failureReason, { code: 'compliance_review' })
  const cancel = await post(`/v1/transfers/${transfer.id}/cancel`)
  t.equal(cancel.statusCode, 409, 'funded: it cannot be cancelled')
  t.match(cancel.json(), { code: 'transfer_invalid_transition', message: /IN_REVIEW to CANCELLED/ })
  const cleared = (await advance(h, transfer.id)).json()
  t.equal(cleared.status, 'PROCESSING', 'an operator clears the review')
  const done = await advanceUntil(h, transfer.id, 'COMPLETED')
  t.equal(done.status, 'COMPLETED', 'and it completes (the trigger fires once)')
})

t.test('a platform-held draft cannot be submitted', async (t) => {
  const draft = await post('/v1/sandbox/transfers/platform-draft', achPayout('1000'))
  t.equal(draft.statusCode, 201)
  t.equal(draft.json().status, 'DRAFT')
  const submit = await post(`/v1/transfers/${draft.json().id}/submit`)
  t.equal(submit.statusCode, 409)
  t.equal(submit.json().code, 'transfer_held_by_platform')
  t.equal((await getTransfer(h, draft.json().id)).status, 'DRAFT', 'nothing changed')
})

t.test('a caller draft is submitted, then runs', async (t) => {
  const draft = await created(h, {
    source: { accountId: aliceUsd },
    destination: { accountId: bobUsd },
    sourceAmount: '100',
    confirm: false,
  })
  t.equal(draft.status, 'DRAFT')
  t.equal(await availableOf(h, aliceUsd), '500000', 'a draft holds nothing')
  const deposit = await post(`/v1/sandbox/transfers/${draft.id}/simulate-deposit`)
  t.equal(deposit.statusCode, 409, 'a balance-funded transfer takes no deposit')
  const submitted = await post(`/v1/transfers/${draft.id}/submit`)
  t.equal(submitted.statusCode, 200)
  t.equal(submitted.json().status, 'PROCESSING', 'submitted and funded from the balance')
  t.equal(await availableOf(h, aliceUsd), '499900')
  const twice = await post(`/v1/transfers/${draft.id}/submit`)
  t.equal(twice.statusCode, 409, 'a second submit of a funded transfer')
  t.match(twice.json().message, /PROCESSING to PENDING/, 'names both states')
})

t.test('cancel before funding releases nothing and frees nothing; after funding it is refused', async (t) => {
  const pending = await created(h, achPayout('2000'))
  const cancelled = await post(`/v1/transfers/${pending.id}/cancel`, { reason: 'changed my mind' })
  t.equal(cancelled.statusCode, 200)
  t.equal(cancelled.json().status, 'CANCELLED')
  t.ok(
    cancelled.json().legs.every((l: { status: string }) => l.status === 'CANCELLED'),
    'its legs are cancelled',
  )
  t.equal((await post(`/v1/transfers/${pending.id}/cancel`)).statusCode, 200, 'cancelling again answers it unchanged')
  const deposit = await post(`/v1/sandbox/transfers/${pending.id}/simulate-deposit`)
  t.equal(deposit.statusCode, 409, 'no deposit after cancel')
  t.match(deposit.json().message, /CANCELLED/)

  const draft = await created(h, {
    source: { accountId: aliceUsd },
    destination: { accountId: bobUsd },
    sourceAmount: '100',
    confirm: false,
  })
  t.equal((await post(`/v1/transfers/${draft.id}/cancel`)).json().status, 'CANCELLED', 'a draft is cancelled')
  t.equal((await post(`/v1/transfers/${draft.id}/submit`)).statusCode, 409, 'and can no longer be submitted')
})

t.test('illegal moves are 409 naming both states', async (t) => {
  const funded = await created(h, { source: { accountId: aliceUsd }, destination: { accountId: bobUsd }, sourceAmount: '100' })
  const reverse = await post(`/v1/sandbox/transfers/${funded.id}/reverse`)
  t.equal(reverse.statusCode, 409)
  t.match(reverse.json(), { code: 'transfer_invalid_transition', message: /PROCESSING to REVERSED/ })
  const refund = await post(`/v1/transfers/${funded.id}/refund`)
  t.equal(refund.statusCode, 409, 'a processing transfer is not refunded')
  t.equal(refund.json().code, 'transfer_not_refundable')
  await advanceUntil(h, funded.id, 'COMPLETED')
  const cancel = await post(`/v1/transfers/${funded.id}/cancel`)
  t.match(cancel.json(), { code: 'transfer_invalid_transition', message: /COMPLETED to CANCELLED/ })
  const more = await advance(h, funded.id)
  t.equal(more.statusCode, 409)
  t.equal(more.json().code, 'transfer_not_advanceable')
  const submit = await post(`/v1/transfers/${funded.id}/submit`)
  t.match(submit.json(), { code: 'transfer_invalid_transition', message: /COMPLETED to PENDING/ })
})

t.test('a completed transfer is reversed: the balance is credited back', async (t) => {
  const before = BigInt(await availableOf(h, aliceUsd))
  const transfer = await created(h, {
    source: { accountId: aliceUsd },
    destination: { accountId: bank, paymentRail: 'ACH' },
    sourceAmount: '1000',
    developerFeeFixed: '50',
  })
  await advanceUntil(h, transfer.id, 'COMPLETED')
  t.equal(BigInt(await availableOf(h, aliceUsd)), before - 1000n, 'paid out')
  const reversed = await post(`/v1/sandbox/transfers/${transfer.id}/reverse`)
  t.equal(reversed.statusCode, 200)
  t.match(reversed.json(), { status: 'REVERSED', returnedToAccountId: aliceUsd })
  t.ok(reversed.json().returnedAt)
  await eventually(
    () => availableOf(h, aliceUsd),
    (v) => BigInt(v) === before - 50n,
    'the payout credited back, the fee kept',
  )
  t.pass('credited back')

  const returned = await created(h, {
    source: { accountId: aliceUsd },
    destination: { accountId: bank, paymentRail: 'ACH' },
    sourceAmount: '6660',
  })
  const completed = await advanceUntil(h, returned.id, 'COMPLETED')
  t.equal(completed.status, 'COMPLETED')
  const back = (await advance(h, returned.id)).json()
  t.match(back, { status: 'REVERSED', failureReason: { code: 'R01' } }, 'the sandbox trigger 66.60: returned by the bank (R01)')
})

t.test('bad requests are 4xx and write nothing', async (t) => {
  const pending = await created(h, achPayout('100'))
  const cases: [string, Record<string, unknown>, number, string][] = [
    ['both amounts', achPayout('100', { destinationAmount: '100' }), 422, 'amount_side_required'],
    ['no amount', { ...achPayout('100'), sourceAmount: undefined }, 422, 'amount_side_required'],
    [
      'a rail that does not carry the currency',
      { ...achPayout('100'), source: { paymentRail: 'ACH', currency: 'EUR' } },
      422,
      'route_not_supported',
    ],
    ['a fee taking everything', achPayout('100', { developerFeeFixed: '100' }), 422, 'developer_fee_exceeds_amount'],
    [
      'an unknown account',
      { ...achPayout('100'), destination: { accountId: 'eba_01m000000000000000000000000' } },
      404,
      'resource_not_found',
    ],
    [
      'more than the balance',
      { source: { accountId: aliceUsd }, destination: { accountId: bobUsd }, sourceAmount: '99999999' },
      422,
      'insufficient_funds',
    ],
    [
      'the same source and destination',
      { source: { accountId: aliceUsd }, destination: { accountId: aliceUsd }, sourceAmount: '1' },
      422,
      'route_not_supported',
    ],
    ['an unknown field', achPayout('100', { surprise: true }), 400, 'validation_failed'],
  ]
  const balance = await availableOf(h, aliceUsd)
  for (const [what, body, status, code] of cases) {
    const res = await createTransfer(h, body)
    t.equal(res.statusCode, status, what)
    if (status !== 400) t.equal(res.json().code, code, `${what}: ${code}`)
  }
  t.equal(await availableOf(h, aliceUsd), balance, 'no hold was placed')
  t.equal((await getTransfer(h, pending.id)).status, 'PENDING')
})

t.test('the sender must be APPROVED and hold the rail’s capability', async (t) => {
  const res = await createTransfer(
    h,
    achPayout('100', {
      sourceCustomerId: (
        await h.request({
          method: 'POST',
          url: '/v1/customers/individuals',
          payload: { firstName: 'New', lastName: 'Comer', email: 'n@example.com' },
        })
      ).json().id,
    }),
  )
  t.equal(res.statusCode, 422)
  t.equal(res.json().code, 'customer_not_approved')
  const achOnly = await approvedCustomer(h, ['USD_ACH_PAYIN'])
  const achBank = await usBankAccount(h, achOnly)
  const missing = await createTransfer(h, {
    sourceCustomerId: achOnly,
    source: { paymentRail: 'WIRE', currency: 'USD' },
    destination: { accountId: achBank, paymentRail: 'WIRE' },
    sourceAmount: '100',
  })
  t.equal(missing.statusCode, 422)
  t.equal(missing.json().code, 'customer_capability_missing')
  t.same(
    missing
      .json()
      .details.map((d: { value: string }) => d.value)
      .sort(),
    ['USD_WIRE_PAYIN', 'USD_WIRE_PAYOUT'],
    'every missing capability is named',
  )
})

t.test('ledger verify is consistent after all of the above', async (t) => {
  const verify = await runCli(['ledger', 'verify', '--json'], { DATABASE_URL: h.runtime.databaseUrl })
  t.equal(verify.code, 0, verify.stderr)
  t.match(JSON.parse(verify.stdout), { consistent: true })
})
