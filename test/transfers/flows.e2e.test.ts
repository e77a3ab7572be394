// Every caller flow from create to COMPLETED through HTTP only: the flow derived from the sides,
// the legs planned and run one by one by the sandbox rails engine (advance), each leg's tracking
// ids in their rail's format, and the money on the balances at the end.
import t from 'tap'
import { isAchTraceNumber, isImad, isOmad, isTxHash, isUetr } from '../../domain/rails/index.js'
import { runCli } from '../cli/fixtures/runCli.js'
import { startTestApp } from '../harness/testApp.js'
import {
  advanceUntil,
  approvedCustomer,
  balanceOf,
  created,
  fundIn,
  ibanAccount,
  simulateDeposit,
  stablecoinBalance,
  usBankAccount,
  usdBalance,
} from './transferWorld.js'

const SOLANA_ADDRESS = 'So11111111111111111111111111111111111111112'
const EVM_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7'

t.test('every caller flow runs from create to COMPLETED', async (t) => {
  const h = await startTestApp(t)
  const alice = await approvedCustomer(h)
  const bob = await approvedCustomer(h)
  const aliceUsd = await usdBalance(h, alice)
  const bobUsd = await usdBalance(h, bob)
  const aliceUsdc = await stablecoinBalance(h, alice)
  const aliceBank = await usBankAccount(h, alice)
  const aliceIban = await ibanAccount(h, alice)
  await fundIn(h, aliceUsd, '1000.00')

  const cases: { flow: string; body: Record<string, unknown>; deposit: boolean; legTypes: string[] }[] = [
    {
      flow: 'CRYPTO_TO_CRYPTO',
      body: {
        source: { paymentRail: 'ETHEREUM', currency: 'USDC' },
        destination: { paymentRail: 'SOLANA', currency: 'USDC', toAddress: SOLANA_ADDRESS },
      },
      deposit: true,
      legTypes: ['DEPOSIT_CRYPTO', 'PAYOUT_CRYPTO'],
    },
    {
      flow: 'CRYPTO_TO_FIAT',
      body: { source: { paymentRail: 'ETHEREUM', currency: 'USDC' }, destination: { accountId: aliceBank, paymentRail: 'ACH' } },
      deposit: true,
      legTypes: ['DEPOSIT_CRYPTO', 'CONVERT', 'PAYOUT_FIAT'],
    },
    {
      flow: 'FIAT_TO_CRYPTO',
      body: {
        source: { paymentRail: 'ACH', currency: 'USD' },
        destination: { paymentRail: 'ETHEREUM', currency: 'USDC', toAddress: EVM_ADDRESS },
      },
      deposit: true,
      legTypes: ['DEPOSIT_FIAT', 'CONVERT', 'PAYOUT_CRYPTO'],
    },
    {
      flow: 'FIAT_TO_FIAT',
      body: { source: { paymentRail: 'WIRE', currency: 'USD' }, destination: { accountId: aliceBank, paymentRail: 'WIRE' } },
      deposit: true,
      legTypes: ['DEPOSIT_FIAT', 'PAYOUT_FIAT'],
    },
    {
      flow: 'FIAT_TO_CRYPTO_TO_FIAT',
      body: { source: { paymentRail: 'ACH', currency: 'USD' }, destination: { accountId: aliceIban, paymentRail: 'SEPA' } },
      deposit: true,
      legTypes: ['DEPOSIT_FIAT', 'CONVERT', 'CONVERT', 'PAYOUT_FIAT'],
    },
    {
      flow: 'FX',
      body: { source: { accountId: aliceUsd }, destination: { accountId: aliceUsdc } },
      deposit: false,
      legTypes: ['BALANCE_DEBIT', 'CONVERT', 'BALANCE_CREDIT'],
    },
    {
      flow: 'INTERNAL',
      body: { source: { accountId: aliceUsd }, destination: { accountId: bobUsd } },
      deposit: false,
      legTypes: ['BALANCE_DEBIT', 'BALANCE_CREDIT'],
    },
  ]
  for (const c of cases) {
    const transfer = await created(h, { sourceCustomerId: alice, sourceAmount: '10000', ...c.body })
    t.equal(transfer.flow, c.flow, `${c.flow}: the flow is derived`)
    t.same(
      transfer.legs.map((l) => l.type),
      c.legTypes,
      `${c.flow}: the legs`,
    )
    t.ok(
      transfer.legs.every((l) => typeof l.id === 'string' && (l.id as string).startsWith('tleg_')),
      `${c.flow}: leg ids`,
    )
    if (c.deposit) {
      t.equal(transfer.status, 'PENDING')
      t.equal(transfer.fundingNeeded, true, `${c.flow}: waits for its deposit`)
      t.ok(transfer.depositInstructions, `${c.flow}: deposit instructions`)
      const funded = await simulateDeposit(h, transfer.id)
      t.equal(funded.status, 'PROCESSING')
      t.equal(funded.fundingNeeded, false)
    } else {
      t.equal(transfer.status, 'PROCESSING', `${c.flow}: funded from the balance at once`)
      t.equal(transfer.depositInstructions, null)
    }
    const done = await advanceUntil(h, transfer.id, 'COMPLETED')
    t.ok(
      done.legs.every((l) => l.status === 'COMPLETED' && l.completedAt),
      `${c.flow}: every leg completed`,
    )
    t.equal(done.currentLegIndex, done.legs.length - 1)
    const read = await h.request({ method: 'GET', url: `/v1/transfers/${transfer.id}` })
    t.equal(read.statusCode, 200)
    t.equal(read.json().status, 'COMPLETED', `${c.flow}: GET shows it completed`)
  }
})

t.test('tracking ids are in their rail’s format', async (t) => {
  const h = await startTestApp(t)
  const alice = await approvedCustomer(h)
  const bank = await usBankAccount(h, alice)
  const wire = await created(h, {
    sourceCustomerId: alice,
    sourceAmount: '5000',
    source: { paymentRail: 'WIRE', currency: 'USD' },
    destination: { accountId: bank, paymentRail: 'WIRE' },
  })
  await simulateDeposit(h, wire.id)
  const wired = await advanceUntil(h, wire.id, 'COMPLETED')
  t.ok(isImad(String(wired.imad)), `IMAD ${wired.imad}`)
  t.ok(isOmad(String(wired.omad)), `OMAD ${wired.omad}`)
  const ach = await created(h, {
    sourceCustomerId: alice,
    sourceAmount: '5000',
    source: { paymentRail: 'ACH', currency: 'USD' },
    destination: { accountId: bank, paymentRail: 'ACH' },
  })
  await simulateDeposit(h, ach.id)
  const achDone = await advanceUntil(h, ach.id, 'COMPLETED')
  t.ok(isAchTraceNumber(String(achDone.achTraceNumber)), `ACH trace ${achDone.achTraceNumber}`)
  const crypto = await created(h, {
    sourceCustomerId: alice,
    sourceAmount: '5000000',
    source: { paymentRail: 'SOLANA', currency: 'USDC' },
    destination: { paymentRail: 'ETHEREUM', currency: 'USDC', toAddress: EVM_ADDRESS },
  })
  const deposited = await simulateDeposit(h, crypto.id)
  t.ok(isTxHash('SOLANA', String(deposited.legs[0]!.txHash)), 'the Solana deposit has a Solana signature')
  const cryptoDone = await advanceUntil(h, crypto.id, 'COMPLETED')
  t.ok(isTxHash('ETHEREUM', String(cryptoDone.txHash)), `the payout has an Ethereum hash ${cryptoDone.txHash}`)
  const iban = await ibanAccount(h, alice)
  const swift = await created(h, {
    sourceCustomerId: alice,
    sourceAmount: '5000',
    source: { paymentRail: 'WIRE', currency: 'USD' },
    destination: { accountId: iban, paymentRail: 'SWIFT', currency: 'EUR' },
  })
  await simulateDeposit(h, swift.id)
  const swiftDone = await advanceUntil(h, swift.id, 'COMPLETED')
  t.ok(isUetr(String(swiftDone.uetr)), `UETR ${swiftDone.uetr}`)
  t.match(swiftDone.metadata, { swiftRouting: { receiverBic: 'COBADEFFXXX' } }, 'metadata.swiftRouting for SWIFT')
})

t.test('a balance-funded transfer settles its hold; the destination balance is credited', async (t) => {
  const h = await startTestApp(t)
  const alice = await approvedCustomer(h)
  const bob = await approvedCustomer(h)
  const from = await usdBalance(h, alice)
  const to = await usdBalance(h, bob)
  await fundIn(h, from, '100.00')
  const transfer = await created(h, {
    source: { accountId: from },
    destination: { accountId: to },
    sourceAmount: '2500',
    developerFeeFixed: '100',
  })
  t.equal(transfer.sourceCustomerId, alice, 'the sender defaults to the balance account’s owner')
  t.match(transfer.destinationAmount, { value: '2400', displayValue: '24.00' }, 'the fee is withheld from the amount')
  t.match(await balanceOf(h, from), { balances: [{ available: { value: '7500' }, committed: { value: '2500' } }] }, 'held while in flight')
  await advanceUntil(h, transfer.id, 'COMPLETED')
  await waitFor(async () => {
    const b = await balanceOf(h, to)
    return JSON.stringify(b).includes('"value":"2400"')
  })
  t.match(await balanceOf(h, from), { balances: [{ available: { value: '7500' }, committed: { value: '0' } }] }, 'the hold settled')
  t.match(await balanceOf(h, to), { balances: [{ available: { value: '2400' } }] }, 'the destination is credited the destination amount')
})

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('condition not met in time')
}

t.test('ledger verify is consistent after the flows', async (t) => {
  const h = await startTestApp(t)
  const alice = await approvedCustomer(h)
  const from = await usdBalance(h, alice)
  const to = await usdBalance(h, await approvedCustomer(h))
  await fundIn(h, from, '10.00')
  const paid = await created(h, {
    source: { accountId: from },
    destination: { accountId: to },
    sourceAmount: '700',
    developerFeePercent: 0.1,
  })
  await advanceUntil(h, paid.id, 'COMPLETED')
  await h.runtime.runner.waitFor((await h.runtime.store.readStream(`transfer-${paid.id}`)).at(-1)?.position, 10_000)
  await new Promise((resolve) => setTimeout(resolve, 300))
  const verify = await runCli(['ledger', 'verify', '--json'], { DATABASE_URL: h.runtime.databaseUrl })
  t.equal(verify.code, 0, verify.stderr)
  t.match(JSON.parse(verify.stdout), { consistent: true })
})
