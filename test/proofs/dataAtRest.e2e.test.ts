// Data at rest (issue 11): known secrets and personal data go in through the API; then every row
// of every table of the database (the event log included), read as text and as bytes, holds none
// of them, while the API still gives each back in the form it shows it. After an operator erases
// the customer, neither the database nor the API holds them, a projection rebuild succeeds, and
// the webhook history keeps only non-sensitive fields.
import t from 'tap'
import pg from 'pg'
import { PNG, createBusiness, saveVerification, upload } from '../customers/fixtures.js'
import { startTestApp } from '../harness/testApp.js'
import { runCli, stdoutJson } from '../cli/fixtures/runCli.js'
import { approvedCustomer, created as createdTransfer, simulateDeposit, usBankAccount, usdBalance } from '../transfers/transferWorld.js'

const KNOWN = {
  phone: '+14155550199',
  dateOfBirth: '1987-03-14',
  addressLine1: '742 Evergreen Terrace Q7',
  addressLine2: 'Building Zeta-9',
  taxId: '219-09-9999',
  idNumber: 'D7Q3X9K2M',
  personPhone: '+14155550177',
  personDateOfBirth: '1979-11-02',
  personAddressLine1: '31 Spooner Street Z4',
  personTaxId: '078-05-1120',
  document: 'DOCUMENT-MARKER-8842-at-rest',
  bankAccountNumber: '8675309123456',
  iban: 'GB82WEST12345698765432',
  originatorName: 'Zephyrine Q8 Remitter',
  originatorAccount: '5566778899001',
  routeRemitterName: 'Quillon V5 Depositor',
  routeRemitterAccount: '4433221100998',
  payerName: 'Oriel Q3 Payerson',
  payerEmail: 'oriel.q3@payer-at-rest.example',
  payerAddressLine1: '99 Ledger Lane K8',
}

/** Every table's rows as text (bytea as hex): what a stolen disk or backup shows. */
async function scanDatabase(url: string): Promise<{ tables: number; text: string }> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows: tables } = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    )
    const parts: string[] = []
    for (const table of tables) {
      const { rows } = await client.query<{ row: string }>(
        `SELECT t::text AS row FROM ${client.escapeIdentifier(table.schema)}.${client.escapeIdentifier(table.name)} t`,
      )
      for (const r of rows) parts.push(r.row)
    }
    return { tables: tables.length, text: parts.join('\n') }
  } finally {
    await client.end()
  }
}

/** A value as it could sit in a row: as text, and as the hex of its bytes (a bytea column). */
const forms = (value: string) => [value, Buffer.from(value, 'utf8').toString('hex')]
const digits = (value: string) => value.replace(/\D/g, '')

function found(scan: string, values: Record<string, string>): string[] {
  const hits: string[] = []
  for (const [name, value] of Object.entries(values)) {
    const candidates = [...forms(value), ...(/^[\d-]+$/.test(value) ? forms(digits(value)) : [])]
    if (candidates.some((c) => scan.includes(c))) hits.push(name)
  }
  return hits
}

const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })
const url = h.runtime.databaseUrl
const env = { DATABASE_URL: url }

const documentBytes = Buffer.concat([PNG, Buffer.from(KNOWN.document)])
const createWithKey = async () => {
  const res = await h.request({
    method: 'POST',
    url: '/v1/customers/individuals',
    headers: { 'idempotency-key': 'at-rest-create' },
    payload: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: KNOWN.phone },
  })
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`)
  return res
}

let created: Awaited<ReturnType<typeof h.request>>
let individual: { id: string }
let front: string
let business: { id: string }
let personId: string
let endpointId: string
let signingSecret: string
let everything: Record<string, string>
let invoiceId: string
const bankAccountIds: string[] = []

t.test('what goes in: known secrets and personal data, through the API', async (t) => {
  created = await createWithKey()
  individual = created.json() as { id: string }
  front = await upload(h, individual.id, documentBytes)
  const back = await upload(h, individual.id)
  const saved = await saveVerification(h, individual.id, {
    dateOfBirth: KNOWN.dateOfBirth,
    nationality: 'US',
    taxIdentificationNumber: KNOWN.taxId,
    address: {
      addressLine1: KNOWN.addressLine1,
      addressLine2: KNOWN.addressLine2,
      city: 'Springfield',
      postalCode: '62701',
      country: 'US',
    },
    governmentId: { type: 'DRIVERS_LICENSE', idNumber: KNOWN.idNumber, issuingCountry: 'US', frontImage: front, backImage: back },
  })
  t.equal(saved.statusCode, 200, saved.body)

  business = await createBusiness(h)
  const person = await h.request({
    method: 'POST',
    url: `/v1/customers/${business.id}/associated_persons`,
    payload: {
      firstName: 'Peter',
      lastName: 'Griffin',
      email: 'peter@example.com',
      phone: KNOWN.personPhone,
      dateOfBirth: KNOWN.personDateOfBirth,
      taxIdentificationNumber: KNOWN.personTaxId,
      address: { addressLine1: KNOWN.personAddressLine1, city: 'Quahog', postalCode: '02903', country: 'US' },
      hasOwnership: true,
      ownershipPercentage: 50,
    },
  })
  t.equal(person.statusCode, 201, person.body)
  personId = (person.json() as { id: string }).id

  const endpoint = await h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: { url: 'https://hooks.example.com/at-rest', description: 'at rest' },
  })
  t.equal(endpoint.statusCode, 201, endpoint.body)
  endpointId = (endpoint.json() as { id: string }).id
  const secretRes = await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${endpointId}/secret` })
  signingSecret = (secretRes.json() as { secret: string }).secret
  t.match(signingSecret, /^whsec_/)

  for (const coordinates of [
    { routingNumber: '021000021', accountNumber: KNOWN.bankAccountNumber },
    { iban: KNOWN.iban, currency: 'GBP' },
  ]) {
    const bank = await h.request({
      method: 'POST',
      url: '/v1/external-bank-accounts',
      payload: { customerId: individual.id, accountOwnerName: 'Ada Lovelace', ...coordinates },
    })
    t.equal(bank.statusCode, 201, bank.body)
    bankAccountIds.push((bank.json() as { id: string }).id)
  }

  // A transfer whose deposit names its remitter (source.originator): sealed with the sender's key.
  const sender = await approvedCustomer(h)
  const transfer = await createdTransfer(h, {
    sourceCustomerId: sender,
    source: { paymentRail: 'WIRE', currency: 'USD' },
    destination: { accountId: await usBankAccount(h, sender), paymentRail: 'WIRE' },
    sourceAmount: '1000',
  })
  const funded = await simulateDeposit(h, transfer.id, {
    originator: {
      name: KNOWN.originatorName,
      bankName: 'Sending Bank',
      routingNumber: '021000021',
      accountNumber: KNOWN.originatorAccount,
    },
  })
  t.match(funded.source, { originator: { name: KNOWN.originatorName, accountNumber: KNOWN.originatorAccount.slice(-4) } })

  // Fixed routes: their dedicated account number and IBAN (shown in full to the customer) and a
  // deposit's remitter, sealed at rest; the create answer is kept for its Idempotency-Key, sealed too.
  const target = await usdBalance(h, sender)
  const route = async (sourceCurrency: string, key: string) => {
    const res = await h.request({
      method: 'POST',
      url: `/v1/customers/${sender}/fixed-routes`,
      payload: { sourceCurrency, sweepTargetAccountId: target },
      headers: { 'idempotency-key': key },
    })
    t.equal(res.statusCode, 201, res.body)
    return res.json() as { id: string; sourceAccount: { depositInstructions: { accountNumber: string | null; iban: string | null } } }
  }
  const usdRoute = await route('USD', 'route-at-rest-usd')
  const eurRoute = await route('EUR', 'route-at-rest-eur')
  const deposit = await h.request({
    method: 'POST',
    url: `/v1/sandbox/fixed-routes/${usdRoute.id}/simulate-deposit`,
    payload: { amount: '10.00', rail: 'WIRE', originator: { name: KNOWN.routeRemitterName, accountNumber: KNOWN.routeRemitterAccount } },
  })
  t.equal(deposit.statusCode, 200, deposit.body)
  const routeAccountNumber = usdRoute.sourceAccount.depositInstructions.accountNumber!
  const routeIban = eurRoute.sourceAccount.depositInstructions.iban!
  t.match(routeAccountNumber, /^\d{12}$/)

  // An invoice's payer (issue 28): sealed under the payee's key in its events, its read model and the stored create answer.
  const invoice = await h.request({
    method: 'POST',
    url: '/v1/invoices',
    headers: { 'idempotency-key': 'invoice-at-rest' },
    payload: {
      customerId: sender,
      currency: 'USD',
      payer: {
        name: KNOWN.payerName,
        email: KNOWN.payerEmail,
        address: { addressLine1: KNOWN.payerAddressLine1, city: 'Boston', postalCode: '02110', country: 'US' },
      },
      lineItems: [{ description: 'Ledger review', quantity: 1, unitAmount: '12500' }],
      dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    },
  })
  t.equal(invoice.statusCode, 201, invoice.body)
  invoiceId = (invoice.json() as { id: string }).id
  t.equal((await h.request({ method: 'POST', url: `/v1/invoices/${invoiceId}/send` })).statusCode, 200)

  everything = { ...KNOWN, signingSecret, routeAccountNumber, routeIban }
  await h.runtime.runner.waitFor(await h.runtime.store.readAll({ maxCount: 10_000 }).then((e) => e.at(-1)?.position), 10_000)
})

t.test('no table holds a secret or a personal value in clear, in any form', async (t) => {
  const scan = await scanDatabase(url)
  t.ok(scan.tables >= 10, `${scan.tables} tables scanned`)
  t.ok(scan.text.includes('peter@example.com'), 'control: a value that is not sensitive is found, so the scan reads the rows')
  t.ok(scan.text.includes(individual.id), 'control: ids are found')
  t.same(found(scan.text, everything), [], 'none of the sensitive values')
})

t.test('the API gives each back in the form it shows it', async (t) => {
  const customer = (await h.request({ method: 'GET', url: `/v1/customers/${individual.id}` })).json() as { phone: string }
  t.equal(customer.phone, KNOWN.phone)
  const verification = await h.request({ method: 'GET', url: `/v1/customers/${individual.id}/verification` })
  t.equal(verification.statusCode, 200, verification.body)
  t.match(verification.json(), {
    individual: {
      dateOfBirth: KNOWN.dateOfBirth,
      address: { addressLine1: KNOWN.addressLine1, addressLine2: KNOWN.addressLine2 },
      taxIdentificationNumberLast4: KNOWN.taxId.slice(-4),
      governmentId: { idNumberLast4: KNOWN.idNumber.slice(-4) },
    },
  })
  t.notMatch(verification.body, KNOWN.taxId, 'a tax id is never returned in full')
  const personRes = await h.request({ method: 'GET', url: `/v1/customers/${business.id}/associated_persons/${personId}` })
  t.match(personRes.json(), {
    phone: KNOWN.personPhone,
    details: { dateOfBirth: KNOWN.personDateOfBirth },
    address: { addressLine1: KNOWN.personAddressLine1 },
  })
  const content = await h.request({ method: 'GET', url: `/v1/documents/${front}/content` })
  t.equal(content.statusCode, 200)
  t.same(content.rawPayload, documentBytes, 'the document, byte for byte')
  t.equal((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${endpointId}/secret` })).json().secret, signingSecret)
  const banks = await Promise.all(bankAccountIds.map((id) => h.request({ method: 'GET', url: `/v1/accounts/${id}` })))
  t.same(
    banks.map((b) => [b.json().accountNumber, b.json().iban]),
    [
      [`****${KNOWN.bankAccountNumber.slice(-4)}`, null],
      [null, `****${KNOWN.iban.slice(-4)}`],
    ],
    'bank coordinates are read back masked',
  )
  const opened = await h.runtime.store.readStream(`account-${bankAccountIds[0]}`)
  t.match(opened[0]!.data, { details: { accountNumber: KNOWN.bankAccountNumber } }, 'the event store opens them for the rails')
  const replay = await createWithKey()
  t.equal(replay.body, created.body, 'an idempotent replay answers from the sealed stored response, byte for byte')
  const invoice = await h.request({ method: 'GET', url: `/v1/invoices/${invoiceId}` })
  t.match(invoice.json(), {
    payer: { name: KNOWN.payerName, email: KNOWN.payerEmail, address: { addressLine1: KNOWN.payerAddressLine1 } },
  })
  const listed = await h.request({ method: 'GET', url: `/v1/invoices?status=OPEN` })
  t.ok(listed.body.includes(KNOWN.payerEmail), 'the list opens the payer too')
})

t.test('after erasure: nothing in the database or the API, a rebuild works, webhooks kept what they may', async (t) => {
  for (const id of [individual.id, business.id]) {
    const run = await runCli(['customers', 'erase', id, '--reason', 'data subject request'], env)
    t.equal(run.code, 0, run.stderr)
    t.match(stdoutJson(run), { customerId: id })
  }
  const customer = (await h.request({ method: 'GET', url: `/v1/customers/${individual.id}` })).json() as { phone: string }
  t.equal(customer.phone, '[erased]')
  const bankEvents = await h.runtime.store.readStream(`account-${bankAccountIds[0]}`)
  t.match(bankEvents[0]!.data, { details: { accountNumber: '[erased]' } }, "the customer's bank account number is shredded with it")
  const verification = await h.request({ method: 'GET', url: `/v1/customers/${individual.id}/verification` })
  t.notMatch(verification.body, KNOWN.dateOfBirth)
  t.notMatch(verification.body, KNOWN.addressLine1)
  const personRes = await h.request({ method: 'GET', url: `/v1/customers/${business.id}/associated_persons/${personId}` })
  t.notMatch(personRes.body, KNOWN.personPhone)
  t.notMatch(personRes.body, KNOWN.personDateOfBirth)
  const content = await h.request({ method: 'GET', url: `/v1/documents/${front}/content` })
  t.equal(content.statusCode, 410)
  const replay = await h.request({
    method: 'POST',
    url: '/v1/customers/individuals',
    headers: { 'idempotency-key': 'at-rest-create' },
    payload: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: KNOWN.phone },
  })
  t.equal(replay.statusCode, 409, 'the stored idempotent response was sealed with the customer key: unreadable too')
  t.match(replay.json(), { code: 'customer_erased' })
  t.notMatch(replay.body, KNOWN.phone)
  const events = await h.runtime.store.readStream(`customer-${individual.id}`)
  t.notMatch(JSON.stringify(events.map((e) => e.data)), KNOWN.dateOfBirth, 'a replay yields the marker')
  t.match(JSON.stringify(events.map((e) => e.data)), '[erased]')

  const rebuild = await runCli(['projections', 'rebuild', 'customers'], env)
  t.equal(rebuild.code, 0, rebuild.stderr)
  const afterRebuild = (await h.request({ method: 'GET', url: `/v1/customers/${individual.id}` })).json() as { phone: string }
  t.equal(afterRebuild.phone, '[erased]', 'the rebuilt read model reads the marker too')

  const scan = await scanDatabase(url)
  t.same(found(scan.text, KNOWN), [], 'still none in any table')
  const { rows } = await h.runtime.pool.query<{ body: string }>('SELECT body FROM webhook_messages')
  t.ok(rows.length > 0, 'the webhook history is kept')
  t.same(found(rows.map((r) => r.body).join('\n'), everything), [], 'with only non-sensitive fields')
})
