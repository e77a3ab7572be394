// The sandbox deposit simulation's six rules through HTTP (spec: simulate-deposit), the minimum and
// the fee, and the remitter on the sweep's transfer.created and transfer.updated events. Each sweep
// is a transfer run by the sandbox rails engine; a sweep into a balance completes at once.
import { randomUUID } from 'node:crypto'
import t from 'tap'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { streams } from '../../events/streams.js'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, createEndpoint } from '../webhooks/deliveryHelpers.js'
import { startReceiver, verifyDelivery } from '../webhooks/deliveryReceiver.js'
import {
  advanceUntil,
  approvedCustomer,
  availableOf,
  getTransfer,
  stablecoinBalance,
  usBankAccount,
  usdBalance,
} from '../transfers/transferWorld.js'
import { fixedRoute, simulate, swept } from './fixedRouteWorld.js'

const h = await startTestApp(
  t,
  { WEBHOOK_RETRY_SCHEDULE_MS: '0,20', SANDBOX_RAIL_DELAYS_MS: 'ACH=100,WIRE=100,SWIFT=100,BALANCE=100' },
  { webhooks: { tuning: FAST_DISPATCHER } },
)
const receiver = await startReceiver()
t.teardown(() => receiver.close())

type Source = { source: { paymentRail: string; originator: Record<string, string | null> | null } }

t.test('rule 1: the same reference and amount is the same sweep; a new reference may take another rail', async (t) => {
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sourceRails: ['ACH', 'WIRE'], sweepTargetAccountId: usd })
  const first = await swept(h, route.id, { amount: '100.00', reference: 'dep-1', rail: 'WIRE', originator: { name: 'Ada' } })
  t.match(first, { accountId: route.id, sweepReferenceId: 'dep-1:10000', status: 'COMPLETED', rail: 'WIRE', held: null })
  t.match(first.transferId, /^tfr_/)
  const replay = await swept(h, route.id, { amount: '100.00', reference: 'dep-1', rail: 'ACH', originator: { name: 'Someone Else' } })
  t.equal(replay.transferId, first.transferId, 'the existing sweep')
  t.equal(replay.rail, 'WIRE', 'its recorded rail')
  const transfer = (await getTransfer(h, first.transferId)) as unknown as Source
  t.match(transfer.source, { paymentRail: 'WIRE', originator: { name: 'Ada' } }, 'rail and remitter unchanged')
  t.equal(await availableOf(h, usd), '10000', 'credited once')
  const swift = await simulate(h, route.id, { amount: '100.00', reference: 'dep-2', rail: 'SWIFT' })
  t.equal(swift.statusCode, 422)
  t.equal(swift.json().code, 'rail_not_accepted')
  t.match(swift.json().details, [{ field: 'rail' }])
  const known = await swept(h, route.id, { amount: '100.00', reference: 'dep-1', rail: 'SWIFT' })
  t.equal(known.transferId, first.transferId, 'a rail not accepted is refused only when no sweep exists for the reference and amount')
  const other = await swept(h, route.id, { amount: '100.00', reference: 'dep-3' })
  t.not(other.transferId, first.transferId)
  t.equal(other.rail, 'ACH', 'omitted: ACH, the stored rail of a route taking ACH and wire')
  const sameRefOtherAmount = await simulate(h, route.id, { amount: '7.00', reference: 'dep-1' })
  t.equal(sameRefOtherAmount.statusCode, 409, 'another amount under a used reference is refused')
  t.equal(sameRefOtherAmount.json().code, 'reference_reused')
  const list = (await h.request({ method: 'GET', url: `/v1/transfers?clientReferenceId=dep-1` })).json()
  t.equal(list.data.length, 1, 'one sweep per reference')
})

t.test('rule 1: an unfinished sweep resumes from the recorded deposit', async (t) => {
  const alice = await approvedCustomer(h)
  const bank = await usBankAccount(h, alice)
  const usd = await usdBalance(h, alice)
  const toBank = await fixedRoute(h, alice, { sourceCurrency: 'USD', sweepTargetAccountId: bank })
  const out = await swept(h, toBank.id, { amount: '20.00', reference: 'out-1' })
  t.equal(out.status, 'PROCESSING', 'a payout sweep runs on the rails engine')
  const again = await swept(h, toBank.id, { amount: '20.00', reference: 'out-1', rail: 'WIRE' })
  t.equal(again.transferId, out.transferId)
  t.equal((await advanceUntil(h, out.transferId, 'COMPLETED')).status, 'COMPLETED', 'the rails engine settles it')

  // A deposit recorded but not swept (as after a crash between the two): the next simulation sweeps it.
  const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sweepTargetAccountId: usd })
  const transferId = 'tfr_01m8000000resumedsweep0000'
  await h.runtime.store.appendToStream(
    streams.account(route.id),
    [
      {
        id: randomUUID(),
        type: 'FixedRouteDepositReceived',
        data: {
          accountId: route.id,
          organizationId: h.org.organizationId,
          customerId: alice,
          reference: 'crash-1',
          amount: { currency: 'USD', amountMinor: '3000' },
          rail: 'WIRE',
          originator: null,
          senderBank: null,
          hold: null,
          transferId,
          at: new Date().toISOString(),
        },
        metadata: { organizationId: h.org.organizationId, requestId: 'req_test', actor: 'test' },
      },
    ],
    { expectedRevision: 'any' },
  )
  const resumed = await swept(h, route.id, { amount: '30.00', reference: 'crash-1', rail: 'ACH' })
  t.equal(resumed.transferId, transferId, 'the sweep of the recorded deposit')
  t.equal(resumed.rail, 'WIRE')
  t.match(await getTransfer(h, transferId), { status: 'COMPLETED', source: { paymentRail: 'WIRE' } })
  t.equal(await availableOf(h, usd), '3000', 'credited once')
})

t.test('rule 2: the default sandbox remitter on wire, ACH and SWIFT; {} none; crypto none unless given', async (t) => {
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const usdc = await stablecoinBalance(h, alice, 'USDC', 'SOLANA')
  const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sourceRails: ['ACH', 'WIRE', 'SWIFT'], sweepTargetAccountId: usd })
  const originatorOf = async (body: Record<string, unknown>, id = route.id) =>
    ((await getTransfer(h, (await swept(h, id, body)).transferId)) as unknown as Source).source.originator
  t.match(await originatorOf({ amount: '1.00', rail: 'WIRE' }), {
    name: 'Sandbox Remitter LLC',
    bankName: 'Sandbox Sending Bank',
    routingNumber: '021000021',
    swiftBic: 'CHASUS33XXX',
  })
  t.match(await originatorOf({ amount: '1.00', rail: 'SWIFT' }), { name: 'Sandbox Remitter LLC', swiftBic: 'CHASUS33XXX' })
  t.same(
    await originatorOf({ amount: '1.00', rail: 'ACH' }),
    {
      name: 'Sandbox Remitter LLC',
      bankName: null,
      routingNumber: '021000021',
      accountNumber: null,
      swiftBic: null,
      bankCountry: null,
    },
    'ACH: the name and routing number only',
  )
  t.equal(await originatorOf({ amount: '1.00', rail: 'WIRE', originator: {} }), null, '{}: none')
  const crypto = await fixedRoute(h, alice, { sourceCurrency: 'USDC', chain: 'SOLANA', sweepTargetAccountId: usdc })
  t.equal(await originatorOf({ amount: '1.00' }, crypto.id), null, 'crypto: none')
  t.match(await originatorOf({ amount: '1.00', originator: { name: 'Wallet Owner' } }, crypto.id), { name: 'Wallet Owner' })
})

t.test('rule 3: with allowedSenderBanks, a deposit without sender-bank data or from another bank is held (fail closed)', async (t) => {
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const route = await fixedRoute(h, alice, {
    sourceCurrency: 'USD',
    sweepTargetAccountId: usd,
    allowedSenderBanks: [{ bankName: 'Chase', routingNumber: '021000021' }],
  })
  const unattributed = await swept(h, route.id, { amount: '10.00' })
  t.match(unattributed, { status: 'IN_REVIEW', held: { code: 'deposit_unattributed' } })
  const held = await getTransfer(h, unattributed.transferId)
  t.match(held, { status: 'IN_REVIEW', source: { originator: null } }, 'recorded, held, visible')
  const nameOnly = await swept(h, route.id, { amount: '10.00', originator: { name: 'No Bank Given' } })
  t.match(nameOnly.held, { code: 'deposit_unattributed' }, 'a remitter without bank data is not attributed either')
  const foreign = await swept(h, route.id, { amount: '10.00', senderBank: { bankName: 'Other', routingNumber: '011000015' } })
  t.match(foreign, { status: 'IN_REVIEW', held: { code: 'sender_bank_not_allowed' } })
  const allowed = await swept(h, route.id, { amount: '10.00', senderBank: { bankName: 'chase', routingNumber: '021000021' } })
  t.match(allowed, { status: 'COMPLETED', held: null })
  t.equal(await availableOf(h, usd), '1000', 'only the attributed deposit was swept')
  const replay = await swept(h, route.id, {
    amount: '10.00',
    reference: unattributed.sweepReferenceId.split(':')[0],
    senderBank: { routingNumber: '021000021' },
  })
  t.equal(replay.transferId, unattributed.transferId, 'a replay keeps the recorded deposit (still held)')
  t.equal(replay.status, 'IN_REVIEW')
})

t.test('rule 4: a treasury wallet target mints USDT and USAT on Ethereum; other assets and Tron are not minted', async (t) => {
  const alice = await approvedCustomer(h)
  const sources = async (accountId: string) => {
    const events = (await h.runtime.store.readStream(streams.account(accountId))).filter((e) => e.type === 'FundsCredited')
    return events.map(
      (e) =>
        (e.data as { transaction: { postings: { ledgerAccount: string; amountMinor: string }[] } }).transaction.postings.find(
          (p) => BigInt(p.amountMinor) < 0n,
        )!.ledgerAccount,
    )
  }
  for (const [currency, chain, minted] of [
    ['USDT', 'ETHEREUM', true],
    ['USAT', 'ETHEREUM', true],
    ['USDC', 'ETHEREUM', false],
    ['USDT', 'TRON', false],
  ] as const) {
    const treasury = await stablecoinBalance(h, null, currency, chain)
    const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sweepTargetAccountId: treasury })
    t.equal((route as { mintsOnDelivery?: boolean }).mintsOnDelivery, minted, `${currency} on ${chain}`)
    const sweep = await swept(h, route.id, { amount: '25.00' })
    t.equal(sweep.status, 'COMPLETED')
    t.same(
      await sources(treasury),
      [minted ? 'mint' : 'world'],
      `${currency} on ${chain}: credited from ${minted ? 'the mint' : 'the world'}`,
    )
    t.equal(await availableOf(h, treasury), '25000000', '25 tokens of 6 decimals')
  }
})

t.test('rule 5: a fiat balance target is credited at once with balance.credited, never twice for one reference', async (t) => {
  const ep = await createEndpoint(h, {
    url: receiver.url('/credits'),
    filterTypes: ['balance.credited', 'transfer.created', 'transfer.updated'],
  })
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sweepTargetAccountId: usd })
  const sweep = await swept(h, route.id, {
    amount: '12.34',
    reference: 'credit-1',
    rail: 'WIRE',
    originator: { name: 'Grace Hopper', accountNumber: '7654321098' },
  })
  t.equal(await availableOf(h, usd), '1234', 'credited when the simulation answers')
  await swept(h, route.id, { amount: '12.34', reference: 'credit-1' })
  t.equal(await availableOf(h, usd), '1234', 'a replay credits nothing')
  const payloads = () =>
    receiver.forPath('/credits').map((d) => verifyDelivery(ep.secret, d) as { type: string; data: Record<string, unknown> })
  await receiver.waitFor(() => payloads().some((p) => p.type === 'balance.credited' && p.data.accountId === usd), 15_000)
  t.equal(payloads().filter((p) => p.type === 'balance.credited' && p.data.accountId === usd).length, 1, 'one balance.credited')
  await receiver.waitFor(() => payloads().some((p) => p.type === 'transfer.updated' && p.data.id === sweep.transferId), 15_000)
  for (const type of ['transfer.created', 'transfer.updated']) {
    const p = payloads().find((x) => x.type === type && x.data.id === sweep.transferId)
    t.match(
      p?.data,
      { source: { originator: { name: null, routingNumber: null, accountNumber: /1098$/ } } },
      `${type} carries source.originator (the name withheld, the account number masked)`,
    )
  }
})

t.test('rule 6: the account fund-in refuses a route’s inw_ account', async (t) => {
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const route = await fixedRoute(h, alice, { sourceCurrency: 'USDC', chain: 'ETHEREUM', sweepTargetAccountId: usd })
  const res = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${route.id}/fund-in`, payload: { amount: '1.00' } })
  t.equal(res.statusCode, 422)
  t.equal(res.json().code, 'fund_in_not_supported')
  const sweep = await swept(h, route.id, { amount: '1.00' })
  t.equal(sweep.status, 'COMPLETED', 'the simulation is the way: USDC on Ethereum to USD')
  t.equal(await availableOf(h, usd), '100')
})

t.test('minimums and fees: below the minimum is held with its reason; the fee is withheld on each sweep', async (t) => {
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const route = await fixedRoute(h, alice, {
    sourceCurrency: 'USD',
    sweepTargetAccountId: usd,
    minimumAmount: '500',
    developerFeeFixed: '25',
    developerFeePercent: 0.01,
  })
  const small = await swept(h, route.id, { amount: '4.99' })
  t.match(small, { status: 'IN_REVIEW', held: { code: 'below_minimum_amount' } })
  t.match((await getTransfer(h, small.transferId)) as Record<string, unknown>, { status: 'IN_REVIEW' })
  const big = await swept(h, route.id, { amount: '100.00' })
  t.equal(big.status, 'COMPLETED')
  t.match(await getTransfer(h, big.transferId), { developerFee: { amount: { value: '125' } }, destinationAmount: { value: '9875' } })
  t.equal(await availableOf(h, usd), '9875', '100.00 less 0.25 and 1%')
  const bad = await simulate(h, route.id, { amount: '1.001' })
  t.equal(bad.statusCode, 422)
  t.equal(bad.json().code, 'invalid_amount')
  const eur = await simulate(h, route.id, { amount: '1.00', currency: 'EUR' })
  t.equal(eur.json().code, 'currency_not_accepted')
})

t.test('a payout sweep runs to COMPLETED on the rails engine’s timers alone', async (t) => {
  const alice = await approvedCustomer(h)
  const bank = await usBankAccount(h, alice)
  const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sweepTargetAccountId: bank, destinationRail: 'WIRE' })
  const sweep = await swept(h, route.id, { amount: '40.00', rail: 'WIRE' })
  t.equal(sweep.status, 'PROCESSING')
  let clock = Date.now()
  let status = sweep.status
  for (let i = 0; i < 10 && status !== 'COMPLETED'; i++) {
    // The timer consumer has seen the sweep's last change before the due timers run.
    const last = (await h.runtime.store.readStream(`transfer-${sweep.transferId}`)).at(-1)
    await h.runtime.runner.waitFor(last?.position, 5_000)
    clock += 5_000
    await runDueCommands({
      db: h.runtime.schedulerDb,
      commands: h.runtime.commands,
      clock: () => new Date(clock),
      log: { error: () => undefined },
    })
    status = (await getTransfer(h, sweep.transferId)).status
  }
  t.equal(status, 'COMPLETED', 'no operator step needed')
  t.match(await getTransfer(h, sweep.transferId), {
    destination: { paymentRail: 'WIRE' },
    legs: [{ status: 'COMPLETED' }, { status: 'COMPLETED' }],
  })
})
