// A transfer's remitter (the funding's originator: name and account number) at rest: in no row of
// any table in clear (the event log, the transfers read model, anything else), while GET shows the
// name and the account number's last four; the read model's state is sealed with the source
// customer's key, so erasing that customer erases them on reads too.
import t from 'tap'
import { eraseCustomerByOperator } from '../../../commands/customers/eraseCustomer.js'
import type { OpenTransferState } from '../../../domain/transfer/state.js'
import { sealedTransferState } from '../../../projections/sealedColumns.js'
import { createIndividual } from '../../customers/fixtures.js'
import { startTestApp } from '../../harness/testApp.js'
import { ORIGINATOR, seedTransfer } from './fixtures.js'

const h = await startTestApp(t)
const org = h.org.organizationId
const KNOWN = { name: ORIGINATOR.name!, accountNumber: ORIGINATOR.accountNumber! }

/** Every row of every table as text (bytea as hex): what a stolen disk or backup shows. */
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

const forms = (value: string) => [value, Buffer.from(value, 'utf8').toString('hex')]

t.test('the originator is in no row in clear; GET shows the name and the last four of the account number', async (t) => {
  const customer = await createIndividual(h)
  const id = await seedTransfer(h, org, { customerId: customer.id }, 'PROCESSING')
  const text = await everyRowAsText()
  t.ok(text.includes(id) && text.includes(ORIGINATOR.routingNumber!), 'the scan sees the rows (what is not sensitive stays in clear)')
  for (const [field, value] of Object.entries(KNOWN))
    t.notOk(
      forms(value).some((form) => text.includes(form)),
      `${field} is in no row in clear`,
    )
  const { rows } = await h.runtime.pool.query<{ state: OpenTransferState }>('SELECT state FROM transfers WHERE id = $1', [id])
  t.ok(sealedTransferState.isSealed(rows[0]!.state), 'the read model holds the originator sealed')

  const read = await h.request({ method: 'GET', url: `/v1/transfers/${id}` })
  t.equal(read.statusCode, 200)
  const originator = { ...ORIGINATOR, accountNumber: KNOWN.accountNumber.slice(-4) }
  t.same(read.json().source.originator, originator, 'opened for reads, the account number masked')
  t.same(read.json().originatingAccount, { bankName: ORIGINATOR.bankName, routingNumber: ORIGINATOR.routingNumber, accountNumber: '5678' })
  t.notMatch(read.body, KNOWN.accountNumber, 'never the whole account number')
  const listed = await h.request({ method: 'GET', url: `/v1/transfers?id=${id}` })
  t.same(listed.json().data[0].source.originator, originator, 'the list opens it the same way')
})

t.test("erasing the source customer erases the transfer's originator on reads", async (t) => {
  const customer = await createIndividual(h, { firstName: 'Erased' })
  const id = await seedTransfer(h, org, { customerId: customer.id }, 'PROCESSING')
  await eraseCustomerByOperator(
    { commands: h.runtime.commands, protection: h.runtime.protection },
    { customerId: customer.id, reason: 'test', erasedBy: 'ops@example.com', actor: 'test' },
  )
  const read = (await h.request({ method: 'GET', url: `/v1/transfers/${id}` })).json()
  t.match(read.source.originator, { name: '[erased]', accountNumber: '[erased]', bankName: ORIGINATOR.bankName })
  const listed = (await h.request({ method: 'GET', url: `/v1/transfers?sourceCustomerId=${customer.id}` })).json()
  t.match(listed.data[0].source.originator, { name: '[erased]' })
})
