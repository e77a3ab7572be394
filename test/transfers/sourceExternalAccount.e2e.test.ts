// Issue 24, D6: source.externalAccountId of POST /v1/transfers names an account, so it is checked as
// every id a request names is: another organization's account and a made-up id are the same 404
// (existence elsewhere is not revealed) and nothing is recorded; the sender's own external account of
// the source's kind is taken; another customer's is 422.
import t from 'tap'
import { newId } from '../../domain/shared/ids.js'
import type { Client } from '../harness/httpClient.js'
import { startTestApp } from '../harness/testApp.js'
import { approvedCustomer, createTransfer, usBankAccount } from './transferWorld.js'

const h = await startTestApp(t)
const orgB = await h.newOrganization('Organization B')
const alice = await approvedCustomer(h)
const aliceBank = await usBankAccount(h, alice)
/** Organization B's client: every request with B's key. */
const asB: Client = { request: (options) => h.request({ ...options, apiKey: options.apiKey ?? orgB.apiKey }) }
const bob = await approvedCustomer(asB)
const bobBank = await usBankAccount(asB, bob)

/** A deposit-funded ACH transfer of B's, naming `externalAccountId` as where the deposit comes from. */
const depositFrom = (externalAccountId: string, clientReferenceId: string) => ({
  sourceCustomerId: bob,
  source: { paymentRail: 'ACH', currency: 'USD', externalAccountId },
  destination: { accountId: bobBank, paymentRail: 'ACH' },
  sourceAmount: '1000',
  clientReferenceId,
})

const listed = async (reference: string) =>
  (await asB.request({ method: 'GET', url: `/v1/transfers?clientReferenceId=${reference}` })).json().data as unknown[]

t.test("another organization's eba_ and a made-up one: the same 404, nothing recorded", async (t) => {
  const foreign = await createTransfer(asB, depositFrom(aliceBank, 'd6-foreign'))
  const madeUp = await createTransfer(asB, depositFrom(newId('eba'), 'd6-made-up'))
  t.equal(foreign.statusCode, 404, `another organization's account: 404 (${foreign.body.slice(0, 200)})`)
  t.equal(madeUp.statusCode, 404, `a made-up account: 404 (${madeUp.body.slice(0, 200)})`)
  t.equal(foreign.json().code, madeUp.json().code, 'the same code')
  t.equal(foreign.json().message.replace(aliceBank, '<id>'), madeUp.json().message.replace(/eba_\w+/, '<id>'), 'the same message')
  t.same(await listed('d6-foreign'), [], 'no transfer recorded')
  t.same(await listed('d6-made-up'), [], 'no transfer recorded')
})

t.test("the sender's own external account is taken; another customer's is 422", async (t) => {
  const own = await createTransfer(asB, depositFrom(bobBank, 'd6-own'))
  t.equal(own.statusCode, 201)
  t.match(own.json().source, { externalAccountId: bobBank })
  const carol = await approvedCustomer(asB)
  const carolBank = await usBankAccount(asB, carol)
  const others = await createTransfer(asB, depositFrom(carolBank, 'd6-other'))
  t.equal(others.statusCode, 422)
  t.match(others.json(), { code: 'account_not_owned_by_sender', details: [{ field: 'source.externalAccountId' }] })
  t.same(await listed('d6-other'), [], 'no transfer recorded')
})
