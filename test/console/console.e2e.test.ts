// The console in headless Chromium against a real service: sign in with a key, see the environment, create a webhook
// endpoint, send a test event and watch its attempt arrive, follow a transfer to COMPLETED, visit every page, and sign out.
// With CONSOLE_SCREENSHOTS=<folder> each page's screenshot is kept there (docs/console/ holds the README's).
import { mkdir, mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import { createApiKey } from '../../commands/organizations/organizationCommands.js'
import { enableAgentsFor } from '../proofs/fixtures/openApp.js'
import { startTestApp } from '../harness/testApp.js'
import {
  advance,
  approvedCustomer,
  created,
  fundIn,
  getTransfer,
  simulateDeposit,
  usBankAccount,
  usdBalance,
} from '../transfers/transferWorld.js'
import { FAST_DISPATCHER } from '../webhooks/deliveryHelpers.js'
import { startReceiver, verifyDelivery } from '../webhooks/deliveryReceiver.js'
import { buildConsole, openBrowser } from './browser.js'

const consoleDir = await buildConsole(t)
const h = await startTestApp(
  t,
  { WEBHOOK_RETRY_SCHEDULE_MS: '0,20', CONSOLE_DIST_DIR: consoleDir },
  { webhooks: { tuning: FAST_DISPATCHER } },
)
const address = await h.app.listen({ host: '127.0.0.1', port: 0 })
const receiver = await startReceiver()
t.teardown(() => receiver.close())
const { page, problems } = await openBrowser(t)

const shots = process.env.CONSOLE_SCREENSHOTS
  ? path.resolve(process.env.CONSOLE_SCREENSHOTS)
  : await mkdtemp(path.join(os.tmpdir(), 'console-shots-'))
await mkdir(shots, { recursive: true })
const shoot = (name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true })

// The world the pages show: an approved customer with a funded balance account, a bank account, and an agent.
await enableAgentsFor(h, h.org.organizationId)
const customerId = await approvedCustomer(h)
const balanceId = await usdBalance(h, customerId)
await fundIn(h, balanceId, '250.00')
const bankId = await usBankAccount(h, customerId)
const agent = await h.request({
  method: 'POST',
  url: '/v1/agents',
  payload: {
    name: 'Payroll bot',
    customerId,
    sourceAccountId: balanceId,
    allowedDestinationAccountIds: [bankId],
    limits: { currency: 'USD', perTransaction: '10000', perDay: '50000', perMonth: '200000' },
  },
})
t.equal(agent.statusCode, 201, 'an agent to show')
const agentId = agent.json<{ id: string }>().id

t.test('sign in with an API key: the session names the environment', async (t) => {
  await page.goto(`${address}/console/`)
  await page.locator('input[name=apiKey]').waitFor()
  await shoot('sign-in')
  await page.fill('input[name=apiKey]', 'sk_sandbox_not_a_key')
  await page.click('button[type=submit]')
  await page.locator('.error').waitFor()
  t.match(await page.locator('.error').innerText(), /401|Unauthorized|invalid/i, 'a wrong key is refused on the page')

  await page.fill('input[name=apiKey]', h.org.apiKey)
  await page.click('button[type=submit]')
  await page.getByTestId('environment').waitFor()
  t.equal(await page.getByTestId('environment').innerText(), 'SANDBOX', 'the environment is shown')
  const cookies = await page.context().cookies()
  const session = cookies.find((c) => c.httpOnly)
  t.ok(session, 'an httpOnly session cookie')
  t.equal(session?.sameSite, 'Strict', 'SameSite=Strict')
  t.notOk(
    cookies.some((c) => c.value.includes(h.org.apiKey)),
    'the key itself is not the cookie',
  )
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))
  t.notOk(stored.includes('sk_sandbox'), 'the key is not kept in browser storage')
})

t.test('customers, with their verification state', async (t) => {
  await page.click('nav >> text=Customers')
  await page.locator(`a:has-text("${customerId}")`).waitFor()
  t.match(await page.locator('tr', { hasText: customerId }).innerText(), /APPROVED/, 'the customer is APPROVED')
  await shoot('customers')
  await page.click(`a:has-text("${customerId}")`)
  await page.locator('h2:has-text("Verification")').waitFor()
  await page.locator('.json').first().waitFor()
  await shoot('customer')
})

t.test('accounts, a balance and its history', async (t) => {
  await page.click('nav >> text=Accounts')
  await page.locator(`a:has-text("${balanceId}")`).waitFor()
  await shoot('accounts')
  await page.click(`a:has-text("${balanceId}")`)
  await page.locator('h2:has-text("Transactions")').waitFor()
  await page.locator('td:has-text("DEPOSIT")').first().waitFor()
  t.match(await page.locator('table').last().innerText(), /250\.00/, 'the fund-in is in the history')
  await shoot('account')
})

t.test('webhooks: create an endpoint, reveal its secret, send a test event, see the attempt', async (t) => {
  await page.click('nav >> text=Webhooks')
  await page.fill('form input[name=url]', receiver.url('/console-hook'))
  await page.fill('form input[name=description]', 'From the console')
  await page.click('button:has-text("Add endpoint")')
  await page.locator('h1:has-text("Endpoint ep_")').waitFor()
  const endpointId = (await page.locator('h1').innerText()).match(/ep_\w+/)?.[0] ?? ''
  t.match(endpointId, /^ep_/, 'the new endpoint opens')

  await page.click('button:has-text("Reveal")')
  await page.locator('[data-testid=secret]:has-text("whsec_")').waitFor()
  const secret = await page.getByTestId('secret').innerText()
  const api = await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${endpointId}/secret` })
  t.equal(secret, api.json<{ secret: string }>().secret, 'the revealed secret is the endpoint’s')
  await page.click('button:has-text("Hide")')
  await page.locator('[data-testid=secret]:has-text("••")').waitFor()
  await shoot('webhook-endpoint')

  await page.click('button:has-text("Send test event")')
  await page.locator('.notice:has-text("Test event sent")').waitFor()

  await receiver.waitFor((requests) => requests.some((r) => r.path === '/console-hook'), 15_000, 'the test delivery')
  const delivered = receiver.forPath('/console-hook')[0]!
  t.match(verifyDelivery(secret, delivered), { type: 'webhook.test' }, 'the delivery verifies with the revealed secret')

  await page.click('.notice a')
  await page.locator('h1:has-text("Message evt_")').waitFor()
  for (let i = 0; i < 20 && (await page.locator('td .ok:has-text("200")').count()) === 0; i++) {
    await page.click('button:has-text("Refresh")')
    await page.waitForTimeout(250)
  }
  t.equal(await page.locator('td .ok:has-text("200")').count(), 1, 'the attempt is shown with its 200')
  await shoot('webhook-message')

  await page.click('button:has-text("Resend")')
  await page.locator('.notice:has-text("Queued again")').waitFor()
  await receiver.waitFor((requests) => requests.filter((r) => r.path === '/console-hook').length >= 2, 15_000, 'the resend')
  t.pass('a resend from the console is delivered again')
})

t.test('a transfer followed to COMPLETED, with its legs and timeline', async (t) => {
  const transfer = await created(h, {
    sourceCustomerId: customerId,
    source: { paymentRail: 'WIRE', currency: 'USD', externalAccountId: bankId },
    destination: { accountId: bankId, paymentRail: 'WIRE' },
    sourceAmount: '1000',
  })
  await page.click('nav >> text=Transfers')
  await page.locator(`a:has-text("${transfer.id}")`).waitFor()
  await page.click(`a:has-text("${transfer.id}")`)
  await page.locator('h2:has-text("Legs")').waitFor()
  await simulateDeposit(h, transfer.id)
  for (let i = 0; i < 12 && (await getTransfer(h, transfer.id)).status !== 'COMPLETED'; i++) await advance(h, transfer.id)
  t.equal((await getTransfer(h, transfer.id)).status, 'COMPLETED', 'the sandbox completed it')
  for (let i = 0; i < 20 && (await page.locator('h1 .badge:has-text("COMPLETED")').count()) === 0; i++) {
    await page.click('button:has-text("Refresh")')
    await page.waitForTimeout(250)
  }
  t.equal(await page.locator('h1 .badge:has-text("COMPLETED")').count(), 1, 'the page shows COMPLETED')
  await page.locator('td code:has-text("transfer")').first().waitFor()
  t.ok((await page.locator('td code').count()) >= 3, 'the timeline lists its events')
  await shoot('transfer')
  await page.click('nav >> text=Transfers')
  await shoot('transfers')
})

t.test('FX trades and agents with their limits', async (t) => {
  await page.click('nav >> text=FX trades')
  await page.locator('h1:has-text("FX trades")').waitFor()
  await shoot('fx-trades')
  await page.click('nav >> text=Agents')
  await page.locator(`a:has-text("${agentId}")`).waitFor()
  await page.click(`a:has-text("${agentId}")`)
  await page.locator('td:has-text("Per day")').waitFor()
  t.match(await page.locator('tr', { hasText: 'Per day' }).innerText(), /50000/, 'the daily limit is shown')
  await shoot('agent')
})

t.test('sign out ends the session', async (t) => {
  await page.click('button:has-text("Sign out")')
  await page.locator('input[name=apiKey]').waitFor()
  const answer = await page.evaluate(async () => (await fetch('/v1/customers', { credentials: 'same-origin' })).status)
  t.equal(answer, 401, 'the API refuses the browser once signed out')
})

t.test('an operator key: consumers, parked events and a resource history across organizations', async (t) => {
  const key = await createApiKey(h.runtime.commands, {
    organizationId: h.org.organizationId,
    environment: 'sandbox',
    actor: 'test',
    role: 'OPERATOR',
  })
  h.secrets.add('API key', key.apiKey)
  await h.runtime.runner.waitFor(key.position, 10_000)
  await page.fill('input[name=apiKey]', key.apiKey)
  await page.click('button[type=submit]')
  await page.locator('h1:has-text("Consumers")').waitFor()
  await page.locator('td code:has-text("projections")').waitFor()
  t.ok((await page.locator('tbody tr').count()) >= 3, 'each consumer group has a row')
  t.equal(await page.locator('nav >> text=Customers').count(), 0, 'no tenant pages for an operator')
  await shoot('operator-consumers')
  await page.click('nav >> text=Parked events')
  await page.locator('h1:has-text("Parked events")').waitFor()
  await shoot('operator-parked')
  await page.click('nav >> text=Resource history')
  await page.fill('input[name=resourceId]', customerId)
  await page.click('button:has-text("Show events")')
  await page.locator('td code:has-text("Customer")').first().waitFor()
  t.ok((await page.locator('td code').count()) >= 2, "the customer's events, read by the operator")
  await shoot('operator-history')
  await page.click('button:has-text("Sign out")')
  await page.locator('input[name=apiKey]').waitFor()
})

t.test('the browser refused nothing: no CSP violation, no page error, no failed load', async (t) => {
  t.same(problems, [])
})
