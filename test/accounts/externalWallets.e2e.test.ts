// POST /v1/external-wallets through HTTP against real Postgres: validation per chain, the
// counterparty (named, upserted for a third party, the customer's own for a first party), the
// match (created: false, conflicts, concurrency), the review on the scheduler (ACTIVE, or CLOSED
// for the sandbox trigger) and the counterparty deletion it blocks.
import { randomBytes } from 'node:crypto'
import t from 'tap'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { reviewTimerId } from '../../commands/external-wallets/reviewScheduling.js'
import { EXTERNAL_WALLET_REVIEW_LIMITS } from '../../domain/account/externalWalletReview.js'
import { SANDBOX_REJECTED_WALLET_ADDRESSES, sandboxWalletAddress } from '../../domain/shared/chain/index.js'
import { streams } from '../../events/streams.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'

const h = await startTestApp(t)
const ada = await createIndividual(h)
const BENEFICIARY = {
  beneficiaryType: 'BUSINESS',
  beneficiaryName: 'Globex Trading GmbH',
  beneficiaryAddress: { addressLine1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', country: 'DE' },
}
const evm = () => sandboxWalletAddress('EVM', randomBytes(32))
const wallet = (over: Record<string, unknown> = {}) => ({
  customerId: ada.id,
  walletAddress: evm(),
  chains: ['ETHEREUM', 'BASE'],
  currencies: ['USDC'],
  ...over,
})
/**
 * Creates a wallet and, once created, waits for its review timer: the create answers without waiting for the
 * timer consumers (its answer shows IN_REVIEW, not the timer), and these tests run the timers at once.
 */
async function create(payload: object, headers: Record<string, string> = {}, apiKey?: string) {
  const res = await h.request({ method: 'POST', url: '/v1/external-wallets', payload, headers, ...(apiKey ? { apiKey } : {}) })
  if (res.statusCode === 201) await settled(res.json().id as string)
  return res
}
const quiet = { error: () => undefined }
/** Runs the review timers as if `ms` had passed. */
const runReviews = (ms = EXTERNAL_WALLET_REVIEW_LIMITS.reviewDelayMs + 1_000) =>
  runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log: quiet, clock: () => new Date(Date.now() + ms) })
/** Waits for the read models (and timer consumers) to reach the account's last event. */
async function settled(accountId: string): Promise<void> {
  const events = await h.runtime.store.readStream(streams.account(accountId))
  await h.runtime.runner.waitFor(events.at(-1)?.position, 10_000)
}

t.test("a first-party wallet: 201, IN_REVIEW, the customer's own counterparty, the address checksummed", async (t) => {
  const address = evm()
  const res = await create(wallet({ walletAddress: address.toLowerCase(), metadata: { nickname: 'Treasury' } }))
  t.equal(res.statusCode, 201, res.body)
  const w = res.json()
  t.match(w.id, /^ewa_[0-9a-z]{26}$/)
  t.match(w, {
    customerId: ada.id,
    type: 'EXTERNAL_WALLET',
    status: 'IN_REVIEW',
    walletAddress: address,
    addressType: 'EVM',
    chains: ['ETHEREUM', 'BASE'],
    currencies: ['USDC'],
    custodyType: 'SELF_HOSTED',
    isThirdParty: false,
    externalReference: null,
    metadata: { nickname: 'Treasury' },
    created: true,
  })
  t.match(w.counterpartyId, /^cp_/)
  const cp = (await h.request({ method: 'GET', url: `/v1/counterparties/${w.counterpartyId}` })).json()
  t.match(cp, { customerId: ada.id, name: ada.customerName, beneficiaryType: 'INDIVIDUAL', isThirdParty: false, address: null })
  const second = (await create(wallet({ chains: ['SOLANA'], walletAddress: sandboxWalletAddress('SOLANA', randomBytes(32)) }))).json()
  t.equal(second.counterpartyId, w.counterpartyId, 'one first-party counterparty per customer')
  t.equal(second.addressType, 'SOLANA')
})

t.test('the same wallet again: 200 created false; other chains or custody: 409', async (t) => {
  const address = evm()
  const first = (await create(wallet({ walletAddress: address, externalReference: 'ref-1' }))).json()
  const again = await create(wallet({ walletAddress: address.toLowerCase(), chains: ['BASE', 'ETHEREUM'], metadata: { nickname: 'x' } }))
  t.equal(again.statusCode, 200)
  t.match(again.json(), { id: first.id, created: false, externalReference: 'ref-1', metadata: {} }, 'the existing record as it is')
  const otherChains = await create(wallet({ walletAddress: address, chains: ['ETHEREUM'] }))
  t.equal(otherChains.statusCode, 409)
  t.equal(otherChains.json().code, 'external_wallet_conflict')
  t.match(otherChains.json().details, [{ field: 'chains' }])
  const otherCustody = await create(wallet({ walletAddress: address, custodyType: 'COINBASE', currencies: ['USDC'] }))
  t.equal(otherCustody.statusCode, 409)
  t.match(otherCustody.json().details, [{ field: 'custodyType' }])
  const bob = await createIndividual(h, { firstName: 'Bob' })
  const forBob = await create(wallet({ customerId: bob.id, walletAddress: address }))
  t.equal(forBob.statusCode, 201, 'another customer registers the same address as its own wallet')
})

t.test('a third party: the beneficiary is required, and upserted into one counterparty', async (t) => {
  const missing = await create(wallet({ isThirdParty: true }))
  t.equal(missing.statusCode, 422)
  t.equal(missing.json().code, 'counterparty_details_required')
  t.same(
    missing.json().details.map((d: { field: string }) => d.field),
    ['beneficiaryType', 'beneficiaryName', 'beneficiaryAddress'],
  )
  const partial = await create(wallet({ isThirdParty: true, beneficiaryName: 'X' }))
  t.same(
    partial.json().details.map((d: { field: string }) => d.field),
    ['beneficiaryType', 'beneficiaryAddress'],
  )
  const first = await create(wallet({ isThirdParty: true, ...BENEFICIARY }))
  t.equal(first.statusCode, 201, first.body)
  const cp = (await h.request({ method: 'GET', url: `/v1/counterparties/${first.json().counterpartyId}` })).json()
  t.match(cp, { name: 'Globex Trading GmbH', beneficiaryType: 'BUSINESS', isThirdParty: true, address: BENEFICIARY.beneficiaryAddress })
  const same = await create(
    wallet({ isThirdParty: true, ...BENEFICIARY, beneficiaryName: '  GLOBEX   trading gmbh ', chains: ['POLYGON'], currencies: ['USDT'] }),
  )
  t.equal(same.statusCode, 201)
  t.equal(same.json().counterpartyId, first.json().counterpartyId, 'the same beneficiary, written differently: one counterparty')
  const moved = await create(
    wallet({ isThirdParty: true, ...BENEFICIARY, beneficiaryAddress: { ...BENEFICIARY.beneficiaryAddress, postalCode: '10117' } }),
  )
  t.not(moved.json().counterpartyId, first.json().counterpartyId, 'another postal code: another counterparty')
  const cyrillic = await create(
    wallet({ isThirdParty: true, ...BENEFICIARY, beneficiaryAddress: { ...BENEFICIARY.beneficiaryAddress, addressLine1: 'ул. 1' } }),
  )
  t.equal(cyrillic.statusCode, 422)
  t.match(cyrillic.json().details, [{ field: 'beneficiaryAddress.transliterated.addressLine1' }])
})

t.test('a named counterparty: the same customer, the same side, and no beneficiary fields', async (t) => {
  const made = await h.request({
    method: 'POST',
    url: '/v1/counterparties',
    payload: { customerId: ada.id, name: 'Named Payee', beneficiaryType: 'INDIVIDUAL', address: BENEFICIARY.beneficiaryAddress },
  })
  const cpId = made.json().id
  const ok = await create(wallet({ isThirdParty: true, counterpartyId: cpId }))
  t.equal(ok.statusCode, 201)
  t.equal(ok.json().counterpartyId, cpId)
  const bob = await createIndividual(h, { firstName: 'Bobby' })
  const foreign = await create(wallet({ customerId: bob.id, isThirdParty: true, counterpartyId: cpId }))
  t.equal(foreign.statusCode, 422)
  t.equal(foreign.json().code, 'counterparty_customer_mismatch')
  const side = await create(wallet({ isThirdParty: false, counterpartyId: cpId }))
  t.equal(side.statusCode, 422)
  t.equal(side.json().code, 'counterparty_party_mismatch')
  const unknown = await create(wallet({ isThirdParty: true, counterpartyId: 'cp_0000000000nosuchcounterpar' }))
  t.equal(unknown.statusCode, 404)
  const both = await create(wallet({ isThirdParty: true, counterpartyId: cpId, ...BENEFICIARY }))
  t.equal(both.statusCode, 422)
  t.equal(both.json().code, 'beneficiary_not_applicable')
  t.equal(both.json().details.length, 3)
  const firstParty = await create(wallet({ beneficiaryName: 'Someone' }))
  t.equal(firstParty.statusCode, 422, 'beneficiary fields on a first-party wallet')
  t.equal(firstParty.json().code, 'beneficiary_not_applicable')
  const other = await h.newOrganization('Other org')
  const theirs = await create(wallet({ isThirdParty: true, counterpartyId: cpId }), {}, other.apiKey)
  t.equal(theirs.statusCode, 404, "another organization's request: the customer is not found")
})

t.test('addresses per address type, and chains and currencies that fit', async (t) => {
  const valid: [string[], string[], string][] = [
    [['SOLANA'], ['USDC', 'USDT'], sandboxWalletAddress('SOLANA', randomBytes(32))],
    [['TRON'], ['USDT'], sandboxWalletAddress('TRON', randomBytes(32))],
    [['BITCOIN'], ['BTC'], sandboxWalletAddress('BITCOIN', randomBytes(32))],
    [['BITCOIN'], ['BTC'], 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    [['ARBITRUM', 'POLYGON'], ['USDT'], evm()],
  ]
  for (const [chains, currencies, walletAddress] of valid) {
    const res = await create(wallet({ chains, currencies, walletAddress }))
    t.equal(res.statusCode, 201, `${chains.join('+')} ${walletAddress}: ${res.body}`)
  }
  const refused: [Record<string, unknown>, string, string][] = [
    [{ chains: ['ETHEREUM', 'SOLANA'] }, 'wallet_chains_mismatch', 'chains.1'],
    [{ chains: ['BASE'], currencies: ['USDT'] }, 'wallet_chains_mismatch', 'currencies.0'],
    [{ chains: ['ETHEREUM'], currencies: ['BTC'] }, 'wallet_chains_mismatch', 'currencies.0'],
    [{ walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' }, 'invalid_wallet_address', 'walletAddress'],
    [{ walletAddress: '0x1234' }, 'invalid_wallet_address', 'walletAddress'],
    [{ chains: ['SOLANA'], walletAddress: evm() }, 'invalid_wallet_address', 'walletAddress'],
    [
      { chains: ['TRON'], currencies: ['USDT'], walletAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' },
      'invalid_wallet_address',
      'walletAddress',
    ],
  ]
  for (const [over, code, field] of refused) {
    const res = await create(wallet(over))
    t.equal(res.statusCode, 422, `${JSON.stringify(over)}: 422`)
    t.equal(res.json().code, code)
    t.ok(
      res.json().details.some((d: { field: string }) => d.field === field),
      `names ${field}`,
    )
  }
  for (const over of [
    { chains: ['DOGECOIN'] },
    { chains: [] },
    { currencies: ['EUR'] },
    { custodyType: 'MATTRESS' },
    { walletAddress: '' },
  ]) {
    t.equal((await create(wallet(over))).statusCode, 400, `${JSON.stringify(over)}: 400`)
  }
  t.equal((await create({ customerId: ada.id })).statusCode, 400, 'required fields')
})

t.test('the customer: unknown, archived, not the X-On-Behalf-Of one', async (t) => {
  t.equal((await create(wallet({ customerId: 'cus_0000000000nosuchcustomer00' }))).statusCode, 404)
  const old = await createIndividual(h, { firstName: 'Old' })
  await h.request({ method: 'POST', url: `/v1/customers/${old.id}/archive` })
  const archived = await create(wallet({ customerId: old.id }))
  t.equal(archived.statusCode, 409)
  t.equal(archived.json().code, 'customer_archived')
  const bob = await createIndividual(h, { firstName: 'Scoped' })
  t.equal((await create(wallet(), { 'x-on-behalf-of': bob.id })).statusCode, 404)
  t.equal((await create(wallet({ customerId: bob.id }), { 'x-on-behalf-of': bob.id })).statusCode, 201)
})

t.test('concurrent identical requests: one wallet, one counterparty', async (t) => {
  const c = await createIndividual(h, { firstName: 'Racer' })
  const body = wallet({ customerId: c.id, isThirdParty: true, ...BENEFICIARY })
  const answers = await Promise.all(Array.from({ length: 8 }, () => create(body)))
  t.same(answers.map((a) => a.statusCode).sort(), [200, 200, 200, 200, 200, 200, 200, 201], 'one 201, the others 200')
  t.equal(new Set(answers.map((a) => a.json().id)).size, 1, 'one wallet')
  t.equal(new Set(answers.map((a) => a.json().counterpartyId)).size, 1, 'one counterparty')
  t.equal(answers.filter((a) => a.json().created === true).length, 1)
  const listed = (await h.request({ method: 'GET', url: `/v1/counterparties?customerId=${c.id}` })).json()
  t.equal(listed.total, 1, 'the counterparty list holds one')
})

t.test('the review runs on the scheduler: ACTIVE, or CLOSED for the sandbox trigger', async (t) => {
  const c = await createIndividual(h, { firstName: 'Reviewed' })
  const good = (await create(wallet({ customerId: c.id }))).json()
  const [burn] = SANDBOX_REJECTED_WALLET_ADDRESSES.EVM
  const bad = (await create(wallet({ customerId: c.id, walletAddress: burn }))).json()
  t.equal(bad.status, 'IN_REVIEW')
  const timers = await h.runtime.schedulerDb
    .selectFrom('scheduled_commands')
    .select(['id', 'due_at'])
    .where('id', 'in', [reviewTimerId(good.id), reviewTimerId(bad.id)])
    .execute()
  t.equal(timers.length, 2, 'a review timer per wallet')
  for (const timer of timers) {
    const due = timer.due_at.getTime() - Date.parse(timer.id.endsWith(good.id) ? good.createdAt : bad.createdAt)
    t.equal(due, EXTERNAL_WALLET_REVIEW_LIMITS.reviewDelayMs, 'due the review delay after creation')
  }
  await runReviews(0)
  t.equal(
    (await create(wallet({ customerId: c.id, walletAddress: good.walletAddress }))).json().status,
    'IN_REVIEW',
    'not before it is due',
  )
  await runReviews()
  const reviewed = await create(wallet({ customerId: c.id, walletAddress: good.walletAddress }))
  t.match(reviewed.json(), { id: good.id, status: 'ACTIVE', created: false })
  t.ok(reviewed.json().updatedAt > good.updatedAt, 'updatedAt moves')
  const closedAgain = await create(wallet({ customerId: c.id, walletAddress: burn }))
  t.equal(closedAgain.statusCode, 201, 'a CLOSED wallet is never matched: a new one is created')
  t.not(closedAgain.json().id, bad.id)
  const events = await h.runtime.store.readStream(streams.account(bad.id))
  t.match(
    events.map((e) => [e.type, e.data.reason]),
    [['AccountOpened'], ['AccountClosed', 'REVIEW_REJECTED']],
  )
  t.equal(events.at(-1)?.metadata.commandId, reviewTimerId(bad.id), 'the review ran once, as its timer')
  const fired = await runReviews(EXTERNAL_WALLET_REVIEW_LIMITS.reviewDelayMs * 10)
  t.equal((await h.runtime.store.readStream(streams.account(good.id))).length, 2, 'a later pass changes nothing')
  t.ok(fired.parked === 0, 'no timer parked')
})

t.test('a counterparty in use by an account in review or active is not deleted', async (t) => {
  const c = await createIndividual(h, { firstName: 'Holder' })
  const [burn] = SANDBOX_REJECTED_WALLET_ADDRESSES.EVM
  const w = (await create(wallet({ customerId: c.id, isThirdParty: true, ...BENEFICIARY, walletAddress: burn }))).json()
  const del = () => h.request({ method: 'DELETE', url: `/v1/counterparties/${w.counterpartyId}` })
  const inReview = await del()
  t.equal(inReview.statusCode, 409)
  t.equal(inReview.json().code, 'counterparty_in_use')
  await runReviews()
  await settled(w.id)
  const afterClose = await del()
  t.equal(afterClose.statusCode, 200, 'its only account CLOSED: deletable')
  const active = (await create(wallet({ customerId: c.id, isThirdParty: true, ...BENEFICIARY }))).json()
  t.not(active.counterpartyId, w.counterpartyId, 'a deleted counterparty is never matched again')
  await runReviews()
  await settled(active.id)
  const refused = await h.request({ method: 'DELETE', url: `/v1/counterparties/${active.counterpartyId}` })
  t.equal(refused.statusCode, 409, 'in use by an ACTIVE account')
})

t.test('the account read shows the review; a wallet closed before its review stays closed', async (t) => {
  const c = await createIndividual(h, { firstName: 'Closer' })
  const kept = (await create(wallet({ customerId: c.id, isThirdParty: true, ...BENEFICIARY }))).json()
  const closing = (await create(wallet({ customerId: c.id }))).json()
  const before = (await h.request({ method: 'GET', url: `/v1/accounts/${kept.id}` })).json()
  t.match(before, {
    id: kept.id,
    type: 'EXTERNAL_WALLET',
    status: 'IN_REVIEW',
    counterpartyId: kept.counterpartyId,
    provider: 'SELF_HOSTED',
  })
  const closed = await h.request({ method: 'POST', url: `/v1/accounts/${closing.id}/close` })
  t.equal(closed.statusCode, 200)
  t.equal(closed.json().status, 'CLOSED')
  const pass = await runReviews()
  t.equal(pass.parked + pass.retried, 0, 'no review failed')
  await settled(kept.id)
  t.equal((await h.request({ method: 'GET', url: `/v1/accounts/${kept.id}` })).json().status, 'ACTIVE')
  t.equal((await h.request({ method: 'GET', url: `/v1/accounts/${closing.id}` })).json().status, 'CLOSED', 'the review left it closed')
  const events = await h.runtime.store.readStream(streams.account(closing.id))
  t.same(
    events.map((e) => e.type),
    ['AccountOpened', 'AccountClosed'],
  )
  await h.request({ method: 'POST', url: `/v1/accounts/${kept.id}/close` })
  await settled(kept.id)
  const del = await h.request({ method: 'DELETE', url: `/v1/counterparties/${kept.counterpartyId}` })
  t.equal(del.statusCode, 200, 'its account closed by the caller: the counterparty is deletable')
})

t.test('a counterparty created explicitly is the one an upsert for the same beneficiary finds', async (t) => {
  const c = await createIndividual(h, { firstName: 'Explicit' })
  const explicit = await h.request({
    method: 'POST',
    url: '/v1/counterparties',
    payload: { customerId: c.id, name: 'Initech GmbH', beneficiaryType: 'BUSINESS', address: BENEFICIARY.beneficiaryAddress },
  })
  const second = await h.request({
    method: 'POST',
    url: '/v1/counterparties',
    payload: { customerId: c.id, name: 'Initech GmbH', beneficiaryType: 'BUSINESS', address: BENEFICIARY.beneficiaryAddress },
  })
  t.not(second.json().id, explicit.json().id, 'an explicit create always creates')
  const w = await create(wallet({ customerId: c.id, isThirdParty: true, ...BENEFICIARY, beneficiaryName: 'initech gmbh' }))
  t.equal(w.statusCode, 201)
  t.equal(w.json().counterpartyId, explicit.json().id, 'the first explicit one answers the beneficiary')
})
