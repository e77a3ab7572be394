// The liquidity facility through HTTP against real Postgres: the facility record (a zero limit
// before configuration), the payout treasuries and PATCH, draws within maximumDrawAmount and
// remainingCredit paid to the treasury through the ledger, the fee at hour boundaries by a stepped
// clock, repayments oldest draw first (fee before principal), refusals with their codes and
// details, lists, and Idempotency-Key.
import t from 'tap'
import { HOUR_MS } from '../../domain/liquidity-facility/limits.js'
import { liquidityFacilityProjector } from '../../projections/liquidityFacility.js'
import { verifyProjections } from '../../projections/runtime/verifyProjection.js'
import { startTestApp } from '../harness/testApp.js'
import { TERMS, availableOn, closeAccount, configure, openTreasury, readyFacility } from './fixtures.js'

const T0 = Date.parse('2026-11-24T08:00:00.000Z')
let now = T0
const h = await startTestApp(t, {}, { clock: () => new Date(now) })

type Org = Awaited<ReturnType<typeof h.newOrganization>>
const as = (org: Org) => ({ apiKey: org.apiKey })
const usdc = (value: string) => ({ currency: 'USDC', exponent: 6, value })

t.test('an organization never configured reads as a zero limit, with its eligible treasuries', async (t) => {
  now = T0
  const org = await h.newOrganization('Treasuries')
  const other = await h.newOrganization('Someone else')
  const named = await openTreasury(h, org.organizationId, { nickname: 'Main treasury' })
  const unnamed = await openTreasury(h, org.organizationId)
  await openTreasury(h, org.organizationId, { customerId: 'cus_01h00000000000000000000000' })
  await openTreasury(h, org.organizationId, { addressType: 'EVM' })
  await openTreasury(h, org.organizationId, { currency: 'USDT' })
  await closeAccount(h, org.organizationId, await openTreasury(h, org.organizationId, { nickname: 'closed' }))
  const foreign = await openTreasury(h, other.organizationId)

  const read = await h.request({ method: 'GET', url: '/v1/liquidity/facility', ...as(org) })
  t.equal(read.statusCode, 200)
  t.same(read.json(), {
    currency: 'USDC',
    network: 'SOLANA',
    creditLine: {
      creditLimit: '0',
      remainingCredit: '0',
      borrowedAmount: '0',
      transactionsOpen: 0,
      maximumDrawAmount: '0',
      fundingFeeBpsPerHour: 0,
      feeCapHours: 1,
      asOf: new Date(T0).toISOString(),
    },
    payoutTreasuryId: null,
    payoutTreasuries: [
      { id: named, name: 'Main treasury' },
      { id: unnamed, name: unnamed },
    ].sort((a, b) => a.id.localeCompare(b.id)),
  })

  for (const payoutTreasuryId of [foreign, 'inw_01h00000000000000000000000', 'not-an-id']) {
    const refused = await h.request({ method: 'PATCH', url: '/v1/liquidity/facility', payload: { payoutTreasuryId }, ...as(org) })
    t.equal(refused.statusCode, 422, `${payoutTreasuryId}: 422`)
    t.match(refused.json(), {
      code: 'payout_treasury_not_eligible',
      details: [{ field: 'body.payoutTreasuryId', value: payoutTreasuryId }],
    })
  }
  const set = await h.request({ method: 'PATCH', url: '/v1/liquidity/facility', payload: { payoutTreasuryId: named }, ...as(org) })
  t.equal(set.statusCode, 200)
  t.equal(set.json().payoutTreasuryId, named, 'PATCH answers the facility record')
  t.same((await h.request({ method: 'GET', url: '/v1/liquidity/facility', ...as(org) })).json(), set.json(), 'as GET shows it')

  const draw = await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '1' }, ...as(org) })
  t.equal(draw.statusCode, 409)
  t.equal(draw.json().code, 'credit_line_not_configured', 'no draw before the operator configures the line')
})

t.test('configuration: terms checked, a draw needs a payout treasury, and the treasury must stay eligible', async (t) => {
  now = T0
  const org = await h.newOrganization('Terms')
  const bad = await configure(h, { ...TERMS, maximumDrawAmount: '1000000001', fundingFeeBpsPerHour: 1.00001, feeCapHours: 0 }, org.apiKey)
  t.equal(bad.statusCode, 422)
  t.match(bad.json(), { code: 'invalid_credit_line' })
  t.same(
    (bad.json().details as { field: string }[]).map((d) => d.field),
    ['maximumDrawAmount', 'fundingFeeBpsPerHour', 'feeCapHours'],
    'each bad field named',
  )
  const ok = await configure(h, { ...TERMS, fundingFeeBpsPerHour: '1.5' }, org.apiKey)
  t.equal(ok.statusCode, 200)
  t.match(ok.json().creditLine, {
    creditLimit: '1000000000',
    remainingCredit: '1000000000',
    maximumDrawAmount: '400000000',
    fundingFeeBpsPerHour: 1.5,
    feeCapHours: 24,
  })
  const noTreasury = await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '1' }, ...as(org) })
  t.equal(noTreasury.statusCode, 409)
  t.equal(noTreasury.json().code, 'payout_treasury_not_set')

  const treasury = await openTreasury(h, org.organizationId)
  t.equal(
    (await h.request({ method: 'PATCH', url: '/v1/liquidity/facility', payload: { payoutTreasuryId: treasury }, ...as(org) })).statusCode,
    200,
  )
  await closeAccount(h, org.organizationId, treasury)
  const closed = await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '1' }, ...as(org) })
  t.equal(closed.statusCode, 409)
  t.equal(closed.json().code, 'payout_treasury_not_eligible', 'a treasury closed since it was set is refused')
})

t.test('draws: limits with their details, the draw record, the treasury credited through the ledger', async (t) => {
  now = T0
  const org = await h.newOrganization('Draws')
  const treasury = await readyFacility(h, TERMS, org)
  const tooLarge = await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '400000001' }, ...as(org) })
  t.equal(tooLarge.statusCode, 422)
  t.match(tooLarge.json(), { code: 'draw_amount_too_large', details: [{ field: 'amount', value: '400000000' }] })
  for (const amount of ['0', '-5', '1.5', '01', 'abc']) {
    const invalid = await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount }, ...as(org) })
    t.ok(invalid.statusCode === 400 || invalid.statusCode === 422, `amount ${amount}: ${invalid.statusCode}`)
  }

  const first = await h.request({
    method: 'POST',
    url: '/v1/liquidity/facility/draws',
    payload: { amount: '400000000', reference: 'inv-42' },
    ...as(org),
  })
  t.equal(first.statusCode, 201)
  const draw = first.json()
  t.match(draw, {
    id: /^drw_/,
    status: 'OPEN',
    amount: { ...usdc('400000000'), displayValue: '400.000000' },
    principalOutstanding: usdc('400000000'),
    // 400 USDC x 1.5 bps = 0.06 USDC for the first started hour.
    feeAccrued: usdc('60000'),
    feeDue: usdc('60000'),
    feePaid: usdc('0'),
    fundingFeeBpsPerHour: 1.5,
    feeCapHours: 24,
    payoutTreasuryId: treasury,
    reference: 'inv-42',
    drawnAt: new Date(T0).toISOString(),
    repaidAt: null,
  })
  t.equal(await availableOn(h, treasury), 400_000_000n, 'the treasury was credited from the credit line')
  t.same((await h.request({ method: 'GET', url: `/v1/liquidity/facility/draws/${draw.id}`, ...as(org) })).json(), draw, 'GET shows it')

  await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '400000000' }, ...as(org) })
  const over = await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '200000001' }, ...as(org) })
  t.equal(over.statusCode, 422)
  t.match(over.json(), { code: 'credit_limit_exceeded', details: [{ field: 'amount', value: '200000000' }] })
  const facility = (await h.request({ method: 'GET', url: '/v1/liquidity/facility', ...as(org) })).json()
  t.match(facility.creditLine, { borrowedAmount: '800000000', remainingCredit: '200000000', transactionsOpen: 2 })
  t.equal(await availableOn(h, treasury), 800_000_000n)
})

t.test("the fee accrues per started hour, at the draw's terms, capped", async (t) => {
  now = T0
  const org = await h.newOrganization('Fees')
  await readyFacility(h, { ...TERMS, fundingFeeBpsPerHour: 1.5, feeCapHours: 3 }, org)
  const drawn = await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '100000000' }, ...as(org) })
  const id = drawn.json().id as string
  // A later reconfiguration does not change the draw's terms.
  await configure(h, { ...TERMS, fundingFeeBpsPerHour: 50, feeCapHours: 100 }, org.apiKey)
  const next: (string | null)[] = []
  const feeAt = async (ms: number) => {
    now = T0 + ms
    const draw = (await h.request({ method: 'GET', url: `/v1/liquidity/facility/draws/${id}`, ...as(org) })).json()
    next.push(draw.feeNextAccruesAt)
    return draw.feeAccrued.value
  }
  // 100 USDC x 1.5 bps = 15 000 minor units an hour.
  t.equal(await feeAt(0), '15000', 'at the draw: one started hour')
  t.equal(await feeAt(HOUR_MS), '15000', 'exactly one hour later: still one')
  t.equal(await feeAt(HOUR_MS + 1), '30000', 'a millisecond past: two')
  t.equal(await feeAt(3 * HOUR_MS), '45000')
  t.equal(await feeAt(3 * HOUR_MS + 1), '45000', 'capped at three hours')
  t.equal(await feeAt(50 * HOUR_MS), '45000')
  const at = (hours: number) => new Date(T0 + hours * HOUR_MS).toISOString()
  t.same(next, [at(1), at(1), at(2), null, null, null], 'feeNextAccruesAt: when the next started hour counts, null once capped')
})

t.test('repayments: oldest draw first, fee before principal; over-repayment refused; lists and reads', async (t) => {
  now = T0
  const org = await h.newOrganization('Repayments')
  await readyFacility(h, { ...TERMS, fundingFeeBpsPerHour: 10 }, org)
  const take = async (amount: string) =>
    (await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount }, ...as(org) })).json().id as string
  const a = await take('100000')
  now = T0 + HOUR_MS
  const b = await take('200000')
  // At 2h + 1ms: a has 3 started hours at 10 bps (300), b has 2 (400). a owes 100 300, b 200 400.
  now = T0 + 2 * HOUR_MS + 1
  const over = await h.request({ method: 'POST', url: '/v1/liquidity/facility/repayments', payload: { amount: '300701' }, ...as(org) })
  t.equal(over.statusCode, 422)
  t.match(over.json(), { code: 'repayment_exceeds_outstanding', details: [{ field: 'amount', value: '300700' }] })

  const first = await h.request({
    method: 'POST',
    url: '/v1/liquidity/facility/repayments',
    headers: { 'idempotency-key': 'repay-1' },
    payload: { amount: '100350' },
    ...as(org),
  })
  t.equal(first.statusCode, 201)
  t.match(first.json(), {
    id: /^rpy_/,
    amount: usdc('100350'),
    feePaid: usdc('350'),
    principalPaid: usdc('100000'),
    draws: [
      { drawId: a, fee: usdc('300'), principal: usdc('100000'), drawStatus: 'REPAID' },
      { drawId: b, fee: usdc('50'), principal: usdc('0'), drawStatus: 'OPEN' },
    ],
  })
  const replay = await h.request({
    method: 'POST',
    url: '/v1/liquidity/facility/repayments',
    headers: { 'idempotency-key': 'repay-1' },
    payload: { amount: '100350' },
    ...as(org),
  })
  t.equal(replay.headers['idempotent-replayed'], 'true')
  t.same(replay.json(), first.json(), 'a replay answers the original repayment')

  const drawA = (await h.request({ method: 'GET', url: `/v1/liquidity/facility/draws/${a}`, ...as(org) })).json()
  t.match(drawA, {
    status: 'REPAID',
    feeAccrued: usdc('300'),
    feePaid: usdc('300'),
    feeDue: usdc('0'),
    repaidAt: new Date(now).toISOString(),
  })
  const drawB = (await h.request({ method: 'GET', url: `/v1/liquidity/facility/draws/${b}`, ...as(org) })).json()
  t.match(drawB, {
    status: 'OPEN',
    feeAccrued: usdc('400'),
    feePaid: usdc('50'),
    feeDue: usdc('350'),
    principalOutstanding: usdc('200000'),
  })
  t.match((await h.request({ method: 'GET', url: '/v1/liquidity/facility', ...as(org) })).json().creditLine, {
    borrowedAmount: '200000',
    transactionsOpen: 1,
  })

  const open = (await h.request({ method: 'GET', url: '/v1/liquidity/facility/draws?status=OPEN', ...as(org) })).json()
  t.same(
    open.data.map((d: { id: string }) => d.id),
    [b],
  )
  const all = (await h.request({ method: 'GET', url: '/v1/liquidity/facility/draws?page_size=1', ...as(org) })).json()
  t.same(
    all.data.map((d: { id: string }) => d.id),
    [b],
    'newest first',
  )
  t.equal(all.has_more, true)
  const next = (await h.request({ method: 'GET', url: all.page_next, ...as(org) })).json()
  t.same(
    next.data.map((d: { id: string }) => d.id),
    [a],
  )
  const badCursor = await h.request({ method: 'GET', url: '/v1/liquidity/facility/draws?starting_after=drw_nope', ...as(org) })
  t.equal(badCursor.statusCode, 422)

  // The rest: b's fee accrued at 3h + 1ms (drawn at 1h: 3 started hours, 600) less the 50 paid, then its principal.
  now = T0 + 3 * HOUR_MS + 1
  const last = await h.request({ method: 'POST', url: '/v1/liquidity/facility/repayments', payload: { amount: '200550' }, ...as(org) })
  t.equal(last.statusCode, 201)
  t.match(last.json().draws, [{ drawId: b, fee: usdc('550'), principal: usdc('200000'), drawStatus: 'REPAID' }])
  t.match((await h.request({ method: 'GET', url: '/v1/liquidity/facility', ...as(org) })).json().creditLine, {
    borrowedAmount: '0',
    remainingCredit: TERMS.creditLimit,
    transactionsOpen: 0,
  })
  const repayments = (await h.request({ method: 'GET', url: '/v1/liquidity/facility/repayments', ...as(org) })).json()
  t.same(
    repayments.data.map((r: { id: string }) => r.id),
    [last.json().id, first.json().id],
  )
  t.same((await h.request({ method: 'GET', url: `/v1/liquidity/facility/repayments/${first.json().id}`, ...as(org) })).json(), first.json())
  const nothing = await h.request({ method: 'POST', url: '/v1/liquidity/facility/repayments', payload: { amount: '1' }, ...as(org) })
  t.equal(nothing.statusCode, 422, 'nothing owed: any repayment is too much')
})

t.test("another organization's draws and repayments are not found", async (t) => {
  now = T0
  const org = await h.newOrganization('Owner')
  const other = await h.newOrganization('Other')
  await readyFacility(h, TERMS, org)
  const id = (await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '1000' }, ...as(org) })).json().id
  t.equal((await h.request({ method: 'GET', url: `/v1/liquidity/facility/draws/${id}`, ...as(other) })).statusCode, 404)
  t.same((await h.request({ method: 'GET', url: '/v1/liquidity/facility/draws', ...as(other) })).json().data, [])
})

t.test('a draw with an Idempotency-Key is taken once', async (t) => {
  now = T0
  const org = await h.newOrganization('Idempotent')
  const treasury = await readyFacility(h, TERMS, org)
  const send = () =>
    h.request({
      method: 'POST',
      url: '/v1/liquidity/facility/draws',
      headers: { 'idempotency-key': 'draw-once' },
      payload: { amount: '5000' },
      ...as(org),
    })
  const first = await send()
  const again = await send()
  t.equal(first.statusCode, 201)
  t.equal(again.statusCode, 201)
  t.equal(again.headers['idempotent-replayed'], 'true')
  t.equal(again.json().id, first.json().id)
  t.equal((await h.request({ method: 'GET', url: '/v1/liquidity/facility', ...as(org) })).json().creditLine.borrowedAmount, '5000')
  t.equal(await availableOn(h, treasury), 5_000n)
})

t.test('the read model rebuilt from the events equals the live one', async (t) => {
  const [result] = await verifyProjections(h.runtime.store, h.runtime.databaseUrl, [liquidityFacilityProjector], h.runtime)
  t.equal(result!.differences, 0, 'no difference')
  t.ok(result!.rowsCompared > 10, `${result!.rowsCompared} rows compared`)
})
