// `projections verify` as a child process against a real Postgres, beside an app whose projectors
// run: zero differences on a healthy store (also while writes go on), and every kind of tampering
// of a live row by SQL reported by key and column, with exit 1. The live tables are left as found.
import t from 'tap'
import { sql } from 'kysely'
import { allProjectors } from '../../projections/allProjectors.js'
import { completeIndividualBody, createBusiness, createIndividual, saveVerification, upload } from '../customers/fixtures.js'
import { startTestApp } from '../harness/testApp.js'
import { runCli, stderrError, stdoutJson } from './fixtures/runCli.js'
import { seedTransfer } from '../transfers/reads/fixtures.js'
import { agentParties, enableAgents, newAgent, newAgentKey, reserveSpend } from '../agents/agentWorld.js'
import { fixedRoute } from '../fixed-routes/fixedRouteWorld.js'
import { approvedCustomer, usBankAccount, usdBalance } from '../transfers/transferWorld.js'

type Difference = { kind: 'missing' | 'unexpected' | 'changed'; key: Record<string, unknown>; columns?: string[] }
type Verified = {
  consistent: boolean
  projections: {
    projection: string
    position: string
    events: number
    rowsCompared: number
    differences: number
    tables: { table: string; liveRows: number; rebuiltRows: number; differences: number; sample: Difference[] }[]
  }[]
}

const h = await startTestApp(t)
const env = { DATABASE_URL: h.runtime.databaseUrl }
const verify = (...args: string[]) => runCli(['projections', 'verify', ...args], env)

// Every projection gets rows: customers with a verification session, documents, endpoints, keys, an account, a counterparty.
const ada = await createIndividual(h)
// Setup throws rather than asserts: a top-level assertion would let tap end the root test early.
const saved = await saveVerification(h, ada.id, await completeIndividualBody(h, ada.id))
if (saved.statusCode !== 200) throw new Error(`save verification: ${saved.statusCode} ${saved.body}`)
const acme = await createBusiness(h)
await upload(h, acme.id)
const endpoints: string[] = []
for (let i = 0; i < 3; i++) {
  const res = await h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: { url: `https://example.com/hook/${i}`, metadata: { n: String(i) } },
  })
  if (res.statusCode !== 201) throw new Error(`create endpoint: ${res.statusCode} ${res.body}`)
  endpoints.push(res.json().id as string)
}
const rotated = await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${endpoints[0]}/secret/rotate` })
if (rotated.statusCode !== 200) throw new Error(`rotate: ${rotated.statusCode} ${rotated.body}`)
await h.newOrganization('Second organization')
// An external wallet: an account, and the customer's own counterparty.
const walletRes = await h.request({
  method: 'POST',
  url: '/v1/external-wallets',
  payload: { customerId: ada.id, walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', chains: ['ETHEREUM'], currencies: ['USDC'] },
})
if (walletRes.statusCode !== 201) throw new Error(`create wallet: ${walletRes.statusCode} ${walletRes.body}`)
const creditLine = await h.request({
  method: 'PUT',
  url: '/v1/sandbox/liquidity/facility',
  payload: { creditLimit: '1000000', maximumDrawAmount: '1000', fundingFeeBpsPerHour: 1.5, feeCapHours: 24 },
})
if (creditLine.statusCode !== 200) throw new Error(`configure credit line: ${creditLine.statusCode} ${creditLine.body}`)
// Accounts and balances: a balance account funded, with a hold.
const account = await h.request({ method: 'POST', url: '/v1/balance-accounts', payload: { customerId: ada.id } })
if (account.statusCode !== 201) throw new Error(`balance account: ${account.statusCode} ${account.body}`)
const accountId = account.json().id as string
const funded = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${accountId}/fund-in`, payload: { amount: '10.00' } })
if (funded.statusCode >= 300) throw new Error(`fund-in: ${funded.statusCode} ${funded.body}`)
const held = await h.request({ method: 'POST', url: `/v1/accounts/${accountId}/holds`, payload: { currency: 'USD', amount: '100' } })
if (held.statusCode !== 201) throw new Error(`hold: ${held.statusCode} ${held.body}`)
// A funded transfer (its remitter sealed), made through the command runtime.
await seedTransfer(h, h.org.organizationId, { customerId: ada.id, sourceAccountId: accountId }, 'PROCESSING')
// A fixed route (its deposit coordinates sealed), created through HTTP.
const routeOwner = await approvedCustomer(h)
await fixedRoute(h, routeOwner, { sourceCurrency: 'USD', sweepTargetAccountId: await usdBalance(h, routeOwner) })
// FX: settings, a customer's own pricing and a firm quote (which takes capacity).
const priced = await h.request({ method: 'PUT', url: `/v1/sandbox/fx/customers/${routeOwner}/pricing`, payload: { spreadBps: 10 } })
if (priced.statusCode !== 200) throw new Error(`fx pricing: ${priced.statusCode} ${priced.body}`)
const quoted = await h.request({
  method: 'POST',
  url: '/v1/fx/quotes',
  payload: {
    customerId: routeOwner,
    sourceCurrency: 'USDC',
    sourceNetwork: 'BASE',
    destinationCurrency: 'USDT',
    destinationNetwork: 'TRON',
    sourceAmount: '5000000',
  },
})
if (quoted.statusCode !== 201) throw new Error(`fx quote: ${quoted.statusCode} ${quoted.body}`)
// An FX trade: a fiat pair's quote (USDC on Solana to USD on ACH) accepted, paid to the customer's bank account.
await h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload: { fiatPairsEnabled: true } })
const tradeQuote = await h.request({
  method: 'POST',
  url: '/v1/fx/quotes',
  payload: {
    customerId: routeOwner,
    sourceCurrency: 'USDC',
    sourceNetwork: 'SOLANA',
    destinationCurrency: 'USD',
    destinationRail: 'ACH',
    sourceAmount: '5000000',
  },
})
const traded = await h.request({
  method: 'POST',
  url: '/v1/fx/trades',
  payload: { quoteId: tradeQuote.json().id, destinationAccountId: await usBankAccount(h, routeOwner) },
})
if (traded.statusCode !== 201) throw new Error(`fx trade: ${traded.statusCode} ${traded.body}`)
// An agent with a key, paused: the agents and agent_keys rows.
await enableAgents(h)
const agent = await newAgent(h, await agentParties(h))
await newAgentKey(h, agent.id)
await reserveSpend(h, agent.id, 'tfr_agent_spend_seed', '2500')
await h.request({ method: 'POST', url: `/v1/agents/${agent.id}/pause` })
const drafted = await h.request({
  method: 'POST',
  url: '/v1/transfer-drafts',
  payload: {
    transfer: {
      sourceCustomerId: routeOwner,
      source: { paymentRail: 'ACH', currency: 'USD' },
      destination: { accountId: await usBankAccount(h, routeOwner), paymentRail: 'ACH' },
      sourceAmount: '1000',
    },
  },
})
if (drafted.statusCode !== 201) throw new Error(`transfer draft: ${drafted.statusCode} ${drafted.body}`)
await usdBalance(h, routeOwner)
const invoiced = await h.request({
  method: 'POST',
  url: '/v1/invoices',
  payload: {
    customerId: routeOwner,
    currency: 'USD',
    payer: { name: 'Grace Hopper', email: 'grace@example.com' },
    lineItems: [{ description: 'Audit', quantity: 1, unitAmount: '5000' }],
    dueDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
  },
})
if (invoiced.statusCode !== 201) throw new Error(`invoice: ${invoiced.statusCode} ${invoiced.body}`)
const invoiceId = (invoiced.json() as { id: string }).id
await h.request({ method: 'POST', url: `/v1/invoices/${invoiceId}/send` })
const paidInvoice = await h.request({
  method: 'POST',
  url: `/v1/sandbox/invoices/${invoiceId}/simulate-payment`,
  payload: { amount: '2000' },
})
if (paidInvoice.statusCode !== 200) throw new Error(`invoice payment: ${paidInvoice.statusCode} ${paidInvoice.body}`)

t.test('a healthy store: every projection rebuilt, zero differences, exit 0', async (t) => {
  const run = await verify()
  t.equal(run.code, 0, run.stderr)
  const result = stdoutJson<Verified>(run)
  t.equal(result.consistent, true)
  t.same(
    result.projections.map((p) => p.projection),
    allProjectors.map((p) => p.name),
    'every projection, in order',
  )
  for (const p of result.projections) {
    t.equal(p.differences, 0, `${p.projection}: no difference`)
    t.ok(p.rowsCompared > 0, `${p.projection}: compared ${p.rowsCompared} rows`)
    t.ok(p.events > 0, `${p.projection}: replayed ${p.events} events`)
    for (const table of p.tables) t.equal(table.liveRows, table.rebuiltRows, `${table.table}: as many rows rebuilt as live`)
  }
  const temp = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_class WHERE relpersistence = 't'`.execute(h.runtime.db)
  t.equal(Number(temp.rows[0]!.n), 0, 'no shadow table outlives the command')
})

t.test('while the API keeps writing, the comparison is at one consistent checkpoint', async (t) => {
  let writing = true
  let written = 0
  const failed: number[] = []
  // Inline, a create answers in a millisecond or two: past the first 100, each new endpoint is deleted again,
  // so the writes go on for as long as the CLI runs without reaching the organization's endpoint limit.
  const writer = (async () => {
    while (writing) {
      const res = await h.request({
        method: 'POST',
        url: '/v1/webhooks/endpoints',
        payload: { url: `https://example.com/busy/${written}` },
      })
      if (res.statusCode === 201) written += 1
      else failed.push(res.statusCode)
      if (res.statusCode !== 201 || written <= 100) continue
      const deleted = await h.request({ method: 'DELETE', url: `/v1/webhooks/endpoints/${res.json().id as string}` })
      if (deleted.statusCode !== 200) failed.push(deleted.statusCode)
    }
  })()
  const run = await verify('webhook_endpoints')
  writing = false
  await writer
  t.same(failed, [], 'every write meanwhile succeeded')
  t.ok(written > 0, 'writes went on during the verification')
  t.equal(run.code, 0, run.stderr)
  t.equal(stdoutJson<Verified>(run).projections[0]!.differences, 0, `no difference with ${written} endpoints created meanwhile`)
})

t.test('tampered live rows: each reported by key and column, exit 1, the live rows left as they are', async (t) => {
  await sql`UPDATE customers SET customer_name = 'Tampered' WHERE id = ${ada.id}`.execute(h.runtime.db)
  await sql`DELETE FROM webhook_endpoints WHERE id = ${endpoints[1]}`.execute(h.runtime.db)
  await sql`INSERT INTO organizations (id, name, created_at) VALUES ('org_forged', 'Forged', now())`.execute(h.runtime.db)

  const run = await verify()
  t.equal(run.code, 1, 'exit 1 when anything differs')
  t.match(stderrError(run), { error: 'projections_differ', projections: ['organizations', 'webhook_endpoints', 'customers'] })
  const result = stdoutJson<Verified>(run)
  t.equal(result.consistent, false)
  const byName = new Map(result.projections.map((p) => [p.projection, p]))
  const sampleOf = (projection: string, table: string) => byName.get(projection)!.tables.find((x) => x.table === table)!
  t.match(sampleOf('customers', 'customers'), {
    differences: 1,
    sample: [{ kind: 'changed', key: { id: ada.id }, columns: ['customer_name'] }],
  })
  t.match(sampleOf('webhook_endpoints', 'webhook_endpoints'), { differences: 1, sample: [{ kind: 'missing', key: { id: endpoints[1] } }] })
  t.match(sampleOf('organizations', 'organizations'), { differences: 1, sample: [{ kind: 'unexpected', key: { id: 'org_forged' } }] })
  t.equal(byName.get('documents')!.differences, 0, 'an untouched projection still compares equal')
  t.notMatch(run.stdout, 'Tampered', 'values are not printed, only keys and column names')

  const name = await h.runtime.db.selectFrom('customers').select('customer_name').where('id', '=', ada.id).executeTakeFirstOrThrow()
  t.equal(name.customer_name, 'Tampered', 'verify repairs nothing: the live row is as it was')
})

t.test('usage: an unknown projection name is a usage error', async (t) => {
  const run = await verify('nope')
  t.equal(run.code, 2)
  t.match(stderrError(run), { error: 'usage_error', validNames: allProjectors.map((p) => p.name) })
})
