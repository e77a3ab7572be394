// Inline projections (issue 25, point 1), through the HTTP API: a write answers with its own rows
// at once (no wait), and a projector that throws fails the command that meets it (the error body,
// nothing stored: no event without its rows), while every other write, the same tenant's other
// accounts and the other tenant, carries on. A trigger fails the balances projector for one account
// only, the way a bug would.
import t from 'tap'
import { sql } from 'kysely'
import { startTestApp } from '../harness/testApp.js'
import { approvedCustomer, availableOf, fundIn, usdBalance } from '../transfers/transferWorld.js'

const h = await startTestApp(t)
const orgB = await h.newOrganization('The other tenant')
const hB = { ...h, request: (o: Parameters<typeof h.request>[0]) => h.request({ apiKey: orgB.apiKey, ...o }) }
const db = h.runtime.db

t.test('the mode is inline on the Postgres store, and a write reads back at once', async (t) => {
  t.equal(h.runtime.projectionMode, 'inline')
  const account = await usdBalance(h, null)
  await fundIn(h, account, '1.25')
  t.equal(await availableOf(h, account), '125', 'the balance row was committed with the credit')
})

t.test('a projector that throws fails the command: 500 error body, no event, no row; the rest carries on', async (t) => {
  const alice = await approvedCustomer(h)
  const [poisoned, healthy] = [await usdBalance(h, alice), await usdBalance(h, alice)]
  const bob = await approvedCustomer(hB)
  const other = await usdBalance(hB, bob)
  await sql
    .raw(
      `CREATE FUNCTION inline_bug() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'a bug for this account'; END $$;
       CREATE TRIGGER inline_bug BEFORE INSERT OR UPDATE ON balances FOR EACH ROW WHEN (NEW.account_id = '${poisoned}')
       EXECUTE FUNCTION inline_bug()`,
    )
    .execute(db)
  t.teardown(() => sql.raw('DROP TRIGGER IF EXISTS inline_bug ON balances; DROP FUNCTION IF EXISTS inline_bug()').execute(db))
  const streamLength = async () => (await h.runtime.store.readStream(`account-${poisoned}`)).length
  const before = await streamLength()

  const failed = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${poisoned}/fund-in`, payload: { amount: '5.00' } })
  t.equal(failed.statusCode, 500, 'the command fails')
  t.match(failed.json(), { code: 'internal_error', requestId: /^req_/ }, 'with the error body')
  t.notMatch(failed.body, /a bug for this account/, 'the database error stays in the log')
  t.equal(await streamLength(), before, 'no event stored without its rows')
  t.equal(await availableOf(h, poisoned), '0', 'no row changed')

  await fundIn(h, healthy, '2.00')
  t.equal(await availableOf(h, healthy), '200', "the same tenant's other account is credited")
  await fundIn(hB, other, '3.00')
  t.equal(await availableOf(hB, other), '300', 'the other tenant is credited')

  await sql.raw('DROP TRIGGER inline_bug ON balances; DROP FUNCTION inline_bug()').execute(db)
  await fundIn(h, poisoned, '5.00')
  t.equal(await availableOf(h, poisoned), '500', 'the bug fixed, the same command succeeds')
  const health = await h.request({ method: 'GET', url: '/health', apiKey: null })
  t.match(health.json(), { status: 'ok' }, 'nothing parked, nothing failing')
})
