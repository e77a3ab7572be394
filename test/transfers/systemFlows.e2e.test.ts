// The platform's own flows through HTTP: REFUND_CRYPTO and REFUND_FIAT transfers sending a
// reviewed deposit back (refund object, transfer.refund_* moments), a refund to a balance, the
// FEE_CRYPTO sweep of a crypto transfer's developer fee; and the rails engine on the scheduler:
// automatic steps, and an untracked SWIFT payout completed after 24 hours as an assumed settlement.
import t from 'tap'
import { derivedTransferId } from '../../commands/transfers/derivedTransferId.js'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { SWIFT_UNTRACKED_SYSTEM_REMARK, isTxHash } from '../../domain/rails/index.js'
import { runCli } from '../cli/fixtures/runCli.js'
import { startTestApp } from '../harness/testApp.js'
import {
  advance,
  advanceUntil,
  approvedCustomer,
  availableOf,
  created,
  eventually,
  fundIn,
  getTransfer,
  ibanAccount,
  simulateDeposit,
  usBankAccount,
  usdBalance,
} from './transferWorld.js'

const EVM_FROM = '0x52908400098527886E0F7030069857D2E4169EE7'
const SOLANA_TO = 'So11111111111111111111111111111111111111112'

const h = await startTestApp(t)
const alice = await approvedCustomer(h)
const bank = await usBankAccount(h, alice)
const post = (url: string, payload?: object) => h.request({ method: 'POST', url, ...(payload ? { payload } : {}) })

t.test('REFUND_CRYPTO: a reviewed crypto deposit goes back to its address', async (t) => {
  const transfer = await created(h, {
    sourceCustomerId: alice,
    source: { paymentRail: 'ETHEREUM', currency: 'USDC', fromAddress: EVM_FROM },
    destination: { paymentRail: 'SOLANA', currency: 'USDC', toAddress: SOLANA_TO },
    sourceAmount: '31310000',
  })
  await simulateDeposit(h, transfer.id)
  t.equal((await advance(h, transfer.id)).json().status, 'IN_REVIEW')
  const refunded = await post(`/v1/transfers/${transfer.id}/refund`, { reason: 'Could not be screened' })
  t.equal(refunded.statusCode, 200)
  t.match(refunded.json(), {
    status: 'REVERSED',
    refund: { status: 'PENDING', reason: 'Could not be screened', address: EVM_FROM },
  })
  const refundId = derivedTransferId(transfer.id, 'refund')
  const refund = await eventually(
    () => getTransfer(h, refundId),
    (r) => r.status === 'PROCESSING',
    'the refund transfer',
  )
  t.match(refund, {
    flow: 'REFUND_CRYPTO',
    sourceCustomerId: alice,
    destination: { toAddress: EVM_FROM, paymentRail: 'ETHEREUM' },
  })
  const done = await advanceUntil(h, refundId, 'COMPLETED')
  const parent = await eventually(
    () => getTransfer(h, transfer.id),
    (p) => (p.refund as { status: string }).status === 'COMPLETED',
    'refund completed',
  )
  t.match(parent.refund, { status: 'COMPLETED', txHash: done.txHash })
  t.ok(isTxHash('ETHEREUM', String((parent.refund as { txHash: string }).txHash)), 'the refund’s hash')
  t.ok(parent.returnedAt, 'returnedAt is set')
  const again = await post(`/v1/transfers/${transfer.id}/refund`)
  t.equal(again.statusCode, 200, 'a retried refund answers the transfer as it is')
  t.match(again.json().refund, { status: 'COMPLETED' }, 'nothing refunded twice')
})

t.test('REFUND_FIAT: a reviewed wire deposit goes back to the sender’s bank account', async (t) => {
  const transfer = await created(h, {
    sourceCustomerId: alice,
    source: { paymentRail: 'WIRE', currency: 'USD', externalAccountId: bank },
    destination: { accountId: bank, paymentRail: 'WIRE' },
    sourceAmount: '3131',
  })
  await simulateDeposit(h, transfer.id)
  await advance(h, transfer.id)
  t.equal((await post(`/v1/transfers/${transfer.id}/refund`)).json().status, 'REVERSED')
  const refundId = derivedTransferId(transfer.id, 'refund')
  const refund = await eventually(
    () => getTransfer(h, refundId),
    (r) => r.status === 'PROCESSING',
    'the refund transfer',
  )
  t.match(refund, { flow: 'REFUND_FIAT', destination: { accountId: bank, paymentRail: 'WIRE' } })
  await advanceUntil(h, refundId, 'COMPLETED')
  await eventually(
    () => getTransfer(h, transfer.id),
    (p) => (p.refund as { status: string }).status === 'COMPLETED',
    'refund completed',
  )
  t.pass('refunded')
})

t.test('a refund without a known destination is 422 and changes nothing', async (t) => {
  const transfer = await created(h, {
    sourceCustomerId: alice,
    source: { paymentRail: 'ETHEREUM', currency: 'USDC' },
    destination: { paymentRail: 'SOLANA', currency: 'USDC', toAddress: SOLANA_TO },
    sourceAmount: '31310000',
  })
  await simulateDeposit(h, transfer.id)
  await advance(h, transfer.id)
  const res = await post(`/v1/transfers/${transfer.id}/refund`)
  t.equal(res.statusCode, 422)
  t.equal(res.json().code, 'refund_address_required')
  t.equal((await getTransfer(h, transfer.id)).status, 'IN_REVIEW')
  const bad = await post(`/v1/transfers/${transfer.id}/refund`, { address: '0x123' })
  t.equal(bad.statusCode, 422, 'an address not of the chain')
})

t.test('a balance-funded transfer in review is refunded to its balance', async (t) => {
  const account = await usdBalance(h, alice)
  const bob = await approvedCustomer(h)
  const to = await usdBalance(h, bob)
  await fundIn(h, account, '100.00')
  const transfer = await created(h, { source: { accountId: account }, destination: { accountId: to }, sourceAmount: '3131' })
  t.equal(await availableOf(h, account), String(10000 - 3131))
  t.equal((await advance(h, transfer.id)).json().status, 'IN_REVIEW')
  const refunded = (await post(`/v1/transfers/${transfer.id}/refund`)).json()
  t.match(refunded, { status: 'REVERSED', returnedToAccountId: account })
  await eventually(
    () => availableOf(h, account),
    (v) => v === '10000',
    'the hold released',
  )
  await eventually(
    () => getTransfer(h, transfer.id),
    (p) => (p.refund as { status: string }).status === 'COMPLETED',
    'refund completed',
  )
  t.pass('back on the balance')
})

t.test('FEE_CRYPTO: a crypto transfer’s developer fee is swept to the fee wallet', async (t) => {
  const transfer = await created(h, {
    sourceCustomerId: alice,
    source: { paymentRail: 'SOLANA', currency: 'USDC' },
    destination: { paymentRail: 'ETHEREUM', currency: 'USDC', toAddress: EVM_FROM },
    sourceAmount: '10000000',
    developerFeePercent: 0.015,
    developerFeeFixed: '250000',
  })
  t.match(transfer.developerFee, { amount: { value: '400000', displayValue: '0.400000' }, fixed: '250000', percent: 0.015 })
  t.match(transfer.destinationAmount, { value: '9600000' })
  t.equal(transfer.exchangeRate, '0.96')
  await simulateDeposit(h, transfer.id)
  const done = await advanceUntil(h, transfer.id, 'COMPLETED')
  const feeHash = (done.developerFee as { txHash: string }).txHash
  t.ok(isTxHash('ETHEREUM', feeHash), 'the fee’s own hash')
  const feeId = derivedTransferId(transfer.id, 'fee')
  const fee = await eventually(
    () => getTransfer(h, feeId),
    (f) => f.status === 'PROCESSING',
    'the fee sweep',
  )
  t.match(fee, { flow: 'FEE_CRYPTO', sourceAmount: { value: '400000', currency: 'USDC' }, source: { paymentRail: 'SOLANA' } })
  t.equal((await advanceUntil(h, feeId, 'COMPLETED')).status, 'COMPLETED')
})

t.test('the scheduler runs the rails engine; an untracked SWIFT payout completes after 24 hours', async (t) => {
  const iban = await ibanAccount(h, alice)
  const transfer = await created(h, {
    sourceCustomerId: alice,
    source: { paymentRail: 'WIRE', currency: 'USD' },
    destination: { accountId: iban, paymentRail: 'SWIFT', currency: 'EUR' },
    sourceAmount: '2424',
  })
  await simulateDeposit(h, transfer.id)
  const db = h.runtime.schedulerDb
  let clock = Date.now()
  const tick = async (ms: number) => {
    clock += ms
    // The timer consumer has seen the transfer's last change before the due timers run.
    const last = (await h.runtime.store.readStream(`transfer-${transfer.id}`)).at(-1)
    await h.runtime.runner.waitFor(last?.position, 5_000)
    return runDueCommands({ db, commands: h.runtime.commands, clock: () => new Date(clock), log: { error: () => undefined } })
  }
  // Each step's timer is due a few seconds after the last change (domain/rails sandbox delays).
  let payoutStarted = false
  for (let i = 0; i < 20 && !payoutStarted; i++) {
    await eventually(
      () => tick(5_000),
      () => true,
      'tick',
    )
    const now = await getTransfer(h, transfer.id)
    payoutStarted = (now.legs.at(-1) as { status: string }).status === 'IN_PROGRESS'
  }
  t.ok(payoutStarted, 'the timers walked the legs up to the SWIFT payout')
  const waiting = await getTransfer(h, transfer.id)
  t.equal(waiting.status, 'PROCESSING')
  t.equal(waiting.uetr, null, 'no tracking came back')
  t.equal((await advance(h, transfer.id)).statusCode, 409, 'the rail never confirms it')
  await tick(23 * 3_600_000)
  t.equal((await getTransfer(h, transfer.id)).status, 'PROCESSING', 'not before 24 hours')
  await tick(3_600_000)
  const done = await eventually(
    () => getTransfer(h, transfer.id),
    (x) => x.status === 'COMPLETED',
    'assumed settlement',
  )
  t.equal(done.systemRemark, SWIFT_UNTRACKED_SYSTEM_REMARK)
})

t.test('ledger verify is consistent after all of the above', async (t) => {
  const verify = await runCli(['ledger', 'verify', '--json'], { DATABASE_URL: h.runtime.databaseUrl })
  t.equal(verify.code, 0, verify.stderr)
  t.match(JSON.parse(verify.stdout), { consistent: true })
})
