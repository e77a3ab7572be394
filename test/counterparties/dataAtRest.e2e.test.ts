// A beneficiary's street lines at rest: given through the counterparty and external wallet
// operations, they are in no row of any table in clear (events, read model, idempotent responses),
// while the API gives them back; erasing the customer erases them (sealed with its key).
import { randomBytes } from 'node:crypto'
import t from 'tap'
import { eraseCustomerByOperator } from '../../commands/customers/eraseCustomer.js'
import { sandboxWalletAddress } from '../../domain/shared/chain/index.js'
import { streams } from '../../events/streams.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'

const KNOWN = { line1: '742 Evergreen Terrace Q7 cp', line2: 'Building Zeta-9 cp', walletLine1: '31 Spooner Street Z4 cp' }

const h = await startTestApp(t)

async function everyRowAsText(): Promise<string> {
  const { rows: tables } = await h.runtime.pool.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  )
  const parts: string[] = []
  for (const table of tables) {
    const { rows } = await h.runtime.pool.query<{ row: string }>(`SELECT t::text AS row FROM "${table.schema}"."${table.name}" t`)
    for (const r of rows) parts.push(r.row)
  }
  return parts.join('\n')
}

t.test('street lines are sealed in the event log, the read model and stored responses', async (t) => {
  const customer = await createIndividual(h)
  const address = { addressLine1: KNOWN.line1, addressLine2: KNOWN.line2, city: 'Springfield', postalCode: '49007', country: 'US' }
  const cp = await h.request({
    method: 'POST',
    url: '/v1/counterparties',
    headers: { 'idempotency-key': 'cp-at-rest' },
    payload: { customerId: customer.id, name: 'Homer Payee', beneficiaryType: 'INDIVIDUAL', address },
  })
  t.equal(cp.statusCode, 201)
  const wallet = await h.request({
    method: 'POST',
    url: '/v1/external-wallets',
    headers: { 'idempotency-key': 'ewa-at-rest' },
    payload: {
      customerId: customer.id,
      walletAddress: sandboxWalletAddress('SOLANA', randomBytes(32)),
      chains: ['SOLANA'],
      currencies: ['USDC'],
      isThirdParty: true,
      beneficiaryType: 'INDIVIDUAL',
      beneficiaryName: 'Peter Payee',
      beneficiaryAddress: { ...address, addressLine1: KNOWN.walletLine1 },
    },
  })
  t.equal(wallet.statusCode, 201, wallet.body)
  const text = await everyRowAsText()
  t.ok(text.includes('Homer Payee'), 'the scan sees the rows (names stay in clear)')
  for (const [name, value] of Object.entries(KNOWN)) t.notOk(text.includes(value), `${name} is in no row in clear`)
  const read = (await h.request({ method: 'GET', url: `/v1/counterparties/${cp.json().id}` })).json()
  t.match(read.address, { addressLine1: KNOWN.line1, addressLine2: KNOWN.line2 })
  const upserted = (await h.request({ method: 'GET', url: `/v1/counterparties/${wallet.json().counterpartyId}` })).json()
  t.equal(upserted.address.addressLine1, KNOWN.walletLine1)
})

t.test("erasing the customer erases its counterparties' street lines", async (t) => {
  const customer = await createIndividual(h, { firstName: 'Erased' })
  const address = { addressLine1: '5 Gone Street', city: 'Springfield', postalCode: '49007', country: 'US' }
  const cp = (
    await h.request({
      method: 'POST',
      url: '/v1/counterparties',
      payload: { customerId: customer.id, name: 'Gone Payee', beneficiaryType: 'INDIVIDUAL', address },
    })
  ).json()
  await eraseCustomerByOperator(
    { commands: h.runtime.commands, protection: h.runtime.protection },
    { customerId: customer.id, reason: 'test', erasedBy: 'ops@example.com', actor: 'test' },
  )
  const read = (await h.request({ method: 'GET', url: `/v1/counterparties/${cp.id}` })).json()
  t.match(read, { name: 'Gone Payee', address: { addressLine1: '[erased]', city: 'Springfield', country: 'US' } })
  const events = await h.runtime.store.readStream(streams.counterparty(cp.id))
  t.match(events[0]?.data, { address: { addressLine1: '[erased]' } }, 'the event log reads the marker too')
  const refused = await h.request({
    method: 'POST',
    url: '/v1/counterparties',
    payload: { customerId: customer.id, name: 'Another', beneficiaryType: 'INDIVIDUAL', address },
  })
  t.equal(refused.statusCode, 409)
  t.equal(refused.json().code, 'customer_erased')
})
