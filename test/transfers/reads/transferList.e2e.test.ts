// The transfer read API through HTTP against real Postgres: GET /v1/transfers (every filter, both
// pagings in both directions, the exact response keys, expand, bad parameters) and GET
// /v1/transfers/{id}, tenant isolation and X-On-Behalf-Of scoping. Transfers are made through the
// command runtime (fixtures.ts) and read back as the projector stored them.
import t from 'tap'
import { createIndividual } from '../../customers/fixtures.js'
import { openAccount } from '../../accounts/openAccounts.js'
import { startTestApp } from '../../harness/testApp.js'
import { seedTransfer } from './fixtures.js'

type Transfer = { id: string; status: string; [key: string]: unknown }
type Page = { has_more: boolean; page_size: number; url: string; data: Transfer[]; page_next: string | null; page_prev: string | null }

const h = await startTestApp(t)
const org = h.org.organizationId
const ann = (await createIndividual(h, { firstName: 'Ann' })).id
const ben = (await createIndividual(h, { firstName: 'Ben' })).id
const cat = (await createIndividual(h, { firstName: 'Cat' })).id
const annUsd = await openAccount(h, org, { kind: 'USD_BALANCE', customerId: ann })
const benUsd = await openAccount(h, org, { kind: 'USD_BALANCE', customerId: ben })
const counterparty = await h.request({
  method: 'POST',
  url: '/v1/counterparties',
  payload: {
    customerId: ann,
    name: 'Pat Payee',
    beneficiaryType: 'INDIVIDUAL',
    address: { addressLine1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' },
  },
})
if (counterparty.statusCode !== 201) throw new Error(`counterparty: ${counterparty.statusCode} ${counterparty.body}`)
const cp = counterparty.json().id as string
const LONG_REFERENCE = 'r'.repeat(256)

const annToBen = await seedTransfer(h, org, {
  customerId: ann,
  destinationCustomerId: ben,
  sourceAccountId: annUsd,
  destinationAccountId: benUsd,
  clientReferenceId: 'invoice-1',
})
const annToPayee = await seedTransfer(h, org, { customerId: ann, counterpartyId: cp, flow: 'FIAT_TO_FIAT' }, 'COMPLETED')
const benToAnn = await seedTransfer(h, org, { customerId: ben, destinationCustomerId: ann, sourceAccountId: benUsd }, 'IN_REVIEW')
const benFailed = await seedTransfer(h, org, { customerId: ben, flow: 'CRYPTO_TO_FIAT', clientReferenceId: 'invoice-2' }, 'FAILED')
const annAgent = await seedTransfer(h, org, { customerId: ann, agentId: 'agt_0000000000000000000000test' }, 'CANCELLED')
const catSelf = await seedTransfer(h, org, { customerId: cat, destinationCustomerId: cat, clientReferenceId: LONG_REFERENCE }, 'PROCESSING')
const annDraft = await seedTransfer(h, org, { customerId: ann, flow: 'FX' }, 'DRAFT')
const ALL = [annToBen, annToPayee, benToAnn, benFailed, annAgent, catSelf, annDraft]
/** The list's order: newest first (ids sort by creation). */
const ordered = (ids: string[]) => [...ids].sort().reverse()

const other = await h.newOrganization('Other organization')
const otherCustomer = (await createIndividual(h, {}, { apiKey: other.apiKey })).id
const otherTransfer = await seedTransfer(h, other.organizationId, { customerId: otherCustomer, clientReferenceId: 'invoice-1' })

const get = (url: string, headers: Record<string, string> = {}, apiKey?: string) =>
  h.request({ method: 'GET', url, headers, ...(apiKey ? { apiKey } : {}) })
async function page(url: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await get(url, headers)
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`)
  return res.json()
}
const ids = (p: Page) => p.data.map((x) => x.id)
const as = (customerId: string) => ({ 'x-on-behalf-of': customerId })

t.test('the default list: exactly the spec keys, every transfer of the organization, newest first', async (t) => {
  const res = await get('/v1/transfers')
  t.equal(res.statusCode, 200)
  const p = res.json() as Page
  t.same(Object.keys(p).sort(), ['data', 'has_more', 'page_next', 'page_prev', 'page_size', 'url'])
  t.same(ids(p), ordered(ALL))
  t.same(
    { has_more: p.has_more, page_size: p.page_size, url: p.url, page_next: p.page_next, page_prev: p.page_prev },
    {
      has_more: false,
      page_size: 50,
      url: '/v1/transfers',
      page_next: null,
      page_prev: null,
    },
  )
  t.notOk(ids(p).includes(otherTransfer), "another organization's transfer is never listed")
  const item = p.data.find((x) => x.id === annToBen)!
  t.match(item, { sourceCustomerId: ann, status: 'PENDING', clientReferenceId: 'invoice-1', source: { accountId: annUsd } })
  for (const key of ['sourceAccount', 'destinationAccount', 'sourceCustomer', 'counterparty', 'documents'])
    t.notOk(key in item, `${key}: not expanded unless asked`)
  t.same(
    p.data.map((x) => x.status),
    ordered(ALL).map(
      (id) =>
        ({
          [annToBen]: 'PENDING',
          [annToPayee]: 'COMPLETED',
          [benToAnn]: 'IN_REVIEW',
          [benFailed]: 'FAILED',
          [annAgent]: 'CANCELLED',
          [catSelf]: 'PROCESSING',
          [annDraft]: 'DRAFT',
        })[id],
    ),
    'each status as the transfer reached it',
  )
})

t.test('a page is its transfers as stored, whatever text they hold', async (t) => {
  // The page is spliced from stored JSON texts: `$&`, `$'` and `$$` are replacement patterns to String.replace.
  const dollars = await h.newOrganization('Dollar organization')
  const payer = (await createIndividual(h, {}, { apiKey: dollars.apiKey })).id
  const remarks = '$& $\' $` $$ "data":[] }]'
  const id = await seedTransfer(h, dollars.organizationId, { customerId: payer, remarks })
  const res = await get('/v1/transfers', {}, dollars.apiKey)
  t.equal(res.statusCode, 200)
  const listed = res.json() as Page
  t.same(
    listed.data.map((item) => [item.id, item.remarks]),
    [[id, remarks]],
  )
})

t.test('every filter', async (t) => {
  const cases: [string, string[]][] = [
    [`id=${annToBen}`, [annToBen]],
    [`id=${annToBen.slice(0, 8)}`, ALL.filter((id) => id.startsWith(annToBen.slice(0, 8)))],
    ['id=tfr_', ALL],
    ['id=acc_', []],
    ['id=tfr%25', []], // `%` is literal, not LIKE's any-characters
    ['id=tf_', []], // `_` is literal too
    [`sourceCustomerId=${ann}`, [annToBen, annToPayee, annAgent, annDraft]],
    [`sourceCustomerId=${ben}`, [benToAnn, benFailed]],
    [`customerId=${ann}`, [annToBen, annToPayee, benToAnn, annAgent, annDraft]],
    [`customerId=${ben}`, [annToBen, benToAnn, benFailed]],
    [`customerId=${cat}`, [catSelf]], // source and destination: listed once
    [`customerId=${ben}&sourceCustomerId=${ann}`, [annToBen]],
    [`counterpartyId=${cp}`, [annToPayee]],
    ['agentId=agt_0000000000000000000000test', [annAgent]],
    ['agentApprovalStatus=PENDING', []], // no agent approvals exist yet
    ['agentApprovalStatus=APPROVED', []],
    ['clientReferenceId=invoice-1', [annToBen]],
    ['clientReferenceId=invoice-2', [benFailed]],
    ['clientReferenceId=INVOICE-1', []], // exact
    ['clientReferenceId=invoice', []], // not a prefix
    [`clientReferenceId=${LONG_REFERENCE}`, [catSelf]],
    ['flow=INTERNAL', [annToBen, benToAnn, annAgent, catSelf]],
    ['flow=FX', [annDraft]],
    ['flow=CRYPTO_TO_FIAT', [benFailed]],
    ['flow=REFUND_FIAT', []],
    ['status=PENDING', [annToBen]],
    ['status=COMPLETED', [annToPayee]],
    ['status=IN_REVIEW', [benToAnn]],
    ['status=FAILED', [benFailed]], // the IN_REVIEW transfer, whose operational failure came after funding, is not FAILED
    ['status=CANCELLED', [annAgent]],
    ['status=PROCESSING', [catSelf]],
    ['status=DRAFT', [annDraft]],
    ['status=REVERSED', []],
    [`status=FAILED&customerId=${ben}`, [benFailed]],
    [`status=PENDING&customerId=${ben}&flow=INTERNAL&clientReferenceId=invoice-1`, [annToBen]],
    [`status=PENDING&customerId=${ben}&flow=FX`, []],
  ]
  for (const [query, expected] of cases) t.same(ids(await page(`/v1/transfers?${query}`)), ordered(expected), query)
  // An id the organization does not have, another organization's or made up, is a 404 (issue 24, D6), not an empty page.
  for (const query of [`sourceCustomerId=${otherCustomer}`, 'counterpartyId=cp_unknown', 'agentId=agt_other'])
    t.equal((await get(`/v1/transfers?${query}`)).statusCode, 404, query)
})

t.test('the FAILED filter never shows a transfer in review (funds already received)', async (t) => {
  const failed = await page('/v1/transfers?status=FAILED')
  t.notOk(ids(failed).includes(benToAnn))
  const inReview = (await page(`/v1/transfers?id=${benToAnn}`)).data[0]!
  t.equal(inReview.status, 'IN_REVIEW')
  t.match(inReview, { failureReason: { code: 'compliance_review' } })
})

t.test('cursor paging: forward with page_next to the end, back with page_prev to the start', async (t) => {
  const all = ordered(ALL)
  const pages: Page[] = []
  let next: string | null = '/v1/transfers?page_size=3'
  while (next) {
    const p = await page(next)
    t.equal(p.url, '/v1/transfers', "url is the list's path")
    pages.push(p)
    next = p.page_next
  }
  t.same(pages.map(ids), [all.slice(0, 3), all.slice(3, 6), all.slice(6)])
  t.same(
    pages.map((p) => p.has_more),
    [true, true, false],
  )
  t.same(
    pages.map((p) => p.page_size),
    [3, 3, 3],
  )
  t.equal(pages[0]!.page_prev, null, 'the first page has no previous page')
  t.equal(pages[0]!.page_next, `/v1/transfers?page_size=3&starting_after=${all[2]}`)
  t.equal(pages[1]!.page_prev, `/v1/transfers?page_size=3&ending_before=${all[3]}`)
  t.equal(pages[2]!.page_next, null, 'the last page has no next page')
  const back: Page[] = []
  let prev: string | null = pages[2]!.page_prev
  while (prev) {
    const p = await page(prev)
    back.push(p)
    prev = p.page_prev
  }
  t.same(back.map(ids), [all.slice(3, 6), all.slice(0, 3)], 'the same pages, walking back')
  t.same(
    back.map((p) => p.has_more),
    [true, false],
    'backwards, has_more says newer items precede',
  )
  t.equal(back[1]!.page_next, `/v1/transfers?page_size=3&starting_after=${all[2]}`, 'and the first page links forward again')
  const filtered = await page(`/v1/transfers?page_size=1&customerId=${ben}&expand=sourceCustomer`)
  t.equal(
    filtered.page_next,
    `/v1/transfers?customerId=${ben}&expand=sourceCustomer&page_size=1&starting_after=${filtered.data[0]!.id}`,
    'links keep the filters and expand',
  )
  t.same(ids(filtered), ordered([annToBen, benToAnn, benFailed]).slice(0, 1))
  const second = await page(filtered.page_next!)
  t.same(ids(second), ordered([annToBen, benToAnn, benFailed]).slice(1, 2), 'the next page of the either-side filter')
  t.equal(second.has_more, true)
})

t.test('offset paging: limit and offset, links in offset mode', async (t) => {
  const all = ordered(ALL)
  const first = await page('/v1/transfers?limit=3')
  t.same(ids(first), all.slice(0, 3))
  t.same({ has_more: first.has_more, page_size: first.page_size, url: first.url }, { has_more: true, page_size: 3, url: '/v1/transfers' })
  t.equal(first.page_next, '/v1/transfers?limit=3&offset=3')
  t.equal(first.page_prev, null)
  const second = await page(first.page_next!)
  t.same(ids(second), all.slice(3, 6))
  t.equal(second.page_prev, '/v1/transfers?limit=3&offset=0')
  const last = await page(second.page_next!)
  t.same(ids(last), all.slice(6))
  t.same(
    { has_more: last.has_more, page_next: last.page_next, page_prev: last.page_prev },
    {
      has_more: false,
      page_next: null,
      page_prev: '/v1/transfers?limit=3&offset=3',
    },
  )
  t.same(ids(await page('/v1/transfers?offset=5')), all.slice(5), 'offset alone: the default limit of 50')
  const exact = await page('/v1/transfers?limit=7')
  t.same({ n: exact.data.length, has_more: exact.has_more, page_next: exact.page_next }, { n: 7, has_more: false, page_next: null })
  const between = await page('/v1/transfers?limit=2&offset=1')
  t.equal(between.page_prev, '/v1/transfers?limit=2&offset=0', 'the previous page never starts before 0')
  const either = await page(`/v1/transfers?customerId=${ann}&limit=2&offset=2`)
  t.same(ids(either), ordered([annToBen, annToPayee, benToAnn, annAgent, annDraft]).slice(2, 4), 'offset with the either-side filter')
  t.equal(either.page_next, `/v1/transfers?customerId=${ann}&limit=2&offset=4`)
  t.same(ids(await page('/v1/transfers?offset=100000')), [], 'the offset bound itself is allowed')
})

t.test('bad parameters: 400 naming the parameter', async (t) => {
  const cases: [string, string][] = [
    ['status=OPEN', 'query.status'],
    ['status=failed', 'query.status'],
    ['flow=WIRE', 'query.flow'],
    ['agentApprovalStatus=MAYBE', 'query.agentApprovalStatus'],
    [`clientReferenceId=${'r'.repeat(257)}`, 'query.clientReferenceId'],
    ['clientReferenceId=', 'query.clientReferenceId'],
    ['id=', 'query.id'],
    [`customerId=${'c'.repeat(65)}`, 'query.customerId'],
    ['limit=0', 'query.limit'],
    ['limit=1001', 'query.limit'],
    ['limit=abc', 'query.limit'],
    ['offset=-1', 'query.offset'],
    ['offset=100001', 'query.offset'],
    ['page_size=0', 'query.page_size'],
    ['page_size=1001', 'query.page_size'],
    ['expand=owner', 'query.expand'],
    ['expand=sourceAccount,owner', 'query.expand'],
    ['expand[]=sourceAccount&expand[]=owner', 'query.expand'],
    [`starting_after=${'x'.repeat(65)}`, 'query.starting_after'],
  ]
  for (const [query, field] of cases) {
    const res = await get(`/v1/transfers?${query}`)
    t.equal(res.statusCode, 400, query)
    t.match(res.json(), { code: 'invalid_request', statusCode: 400, details: [{ field }] }, query)
  }
  for (const query of ['limit=2&page_size=2', 'offset=1&starting_after=tfr_x', 'starting_after=tfr_a&ending_before=tfr_b']) {
    const res = await get(`/v1/transfers?${query}`)
    t.equal(res.statusCode, 400, `${query}: one paging mode, one cursor`)
    t.match(res.json(), { code: 'invalid_request' })
  }
})

t.test('a cursor naming no transfer the caller can read: 422 invalid_cursor', async (t) => {
  for (const query of [
    'starting_after=tfr_00000000000000000000000000',
    `starting_after=${otherTransfer}`,
    `ending_before=${otherTransfer}`,
  ]) {
    const res = await get(`/v1/transfers?${query}`)
    t.equal(res.statusCode, 422, query)
    t.match(res.json(), { code: 'invalid_cursor' })
  }
  const res = await get(`/v1/transfers?starting_after=${annToBen}`, as(cat))
  t.equal(res.statusCode, 422, "a transfer outside X-On-Behalf-Of's scope is no cursor either")
  const moved = await page(`/v1/transfers?status=FAILED&starting_after=${annToBen}`)
  t.same(
    ids(moved),
    ordered(ALL).filter((id) => id < annToBen && id === benFailed),
    'a cursor outside the status filter still pages',
  )
})

t.test('expand: every kind, comma-separated, repeated or bracketed, in the list and on one transfer', async (t) => {
  for (const query of [
    'expand=sourceAccount,destinationAccount,sourceCustomer,counterparty,documents',
    'expand=sourceAccount&expand=destinationAccount,sourceCustomer&expand=counterparty&expand=documents',
    'expand[]=sourceAccount&expand[]=destinationAccount&expand[]=sourceCustomer&expand[]=counterparty&expand=documents',
  ]) {
    const p = await page(`/v1/transfers?${query}`)
    const one = p.data.find((x) => x.id === annToBen)!
    t.match(
      one,
      { sourceAccount: { id: annUsd, customerId: ann }, destinationAccount: { id: benUsd, customerId: ben }, sourceCustomer: { id: ann } },
      query,
    )
    t.equal(one.counterparty, null, `${query}: no counterparty`)
    t.same(one.documents, [], `${query}: no documents can be attached yet`)
    const payee = p.data.find((x) => x.id === annToPayee)!
    t.match(payee, {
      counterparty: { id: cp, name: 'Pat Payee', address: { addressLine1: '1 Main St' } },
      sourceAccount: null,
      destinationAccount: null,
    })
  }
  const read = await get(`/v1/transfers/${annToBen}?expand=sourceCustomer,destinationAccount`)
  t.equal(read.statusCode, 200)
  t.match(read.json(), { id: annToBen, sourceCustomer: { id: ann, customerName: 'Ann Lovelace' }, destinationAccount: { id: benUsd } })
  t.notOk('sourceAccount' in read.json(), 'only what was asked for')
  const bad = await get(`/v1/transfers/${annToBen}?expand=owner`)
  t.equal(bad.statusCode, 400)
})

t.test('one transfer: 404 for another organization, an unknown id, or outside X-On-Behalf-Of', async (t) => {
  const res = await get(`/v1/transfers/${annToPayee}`)
  t.equal(res.statusCode, 200)
  t.match(res.json(), { id: annToPayee, status: 'COMPLETED', counterpartyId: cp, flow: 'FIAT_TO_FIAT' })
  t.same(res.json(), (await page(`/v1/transfers?id=${annToPayee}`)).data[0], 'the same JSON as the list')
  for (const [id, headers, apiKey, why] of [
    [otherTransfer, {}, undefined, "another organization's"],
    [annToBen, {}, other.apiKey, 'read with another organization’s key'],
    ['tfr_00000000000000000000000000', {}, undefined, 'unknown'],
    [annToPayee, as(ben), undefined, 'neither sent nor received by the X-On-Behalf-Of customer'],
  ] as const) {
    const r = await get(`/v1/transfers/${id}`, headers, apiKey)
    t.equal(r.statusCode, 404, why)
    t.match(r.json(), { code: 'not_found' })
  }
  const otherList = (await get('/v1/transfers', {}, other.apiKey)).json() as Page
  t.same(ids(otherList), [otherTransfer], 'the other organization sees only its own')
})

t.test('X-On-Behalf-Of: the transfers that customer sends or receives, related objects of others expand to null', async (t) => {
  t.same(ids(await page('/v1/transfers', as(ben))), ordered([annToBen, benToAnn, benFailed]))
  t.same(ids(await page('/v1/transfers', as(cat))), [catSelf])
  t.same(ids(await page(`/v1/transfers?customerId=${ann}`, as(ben))), ordered([annToBen, benToAnn]), 'with customerId: both')
  t.same(ids(await page(`/v1/transfers?sourceCustomerId=${ann}`, as(ben))), [annToBen])
  t.same(ids(await page(`/v1/transfers?customerId=${cat}`, as(ben))), [])
  const paged = await page('/v1/transfers?page_size=2', as(ben))
  t.same(ids(await page(paged.page_next!, as(ben))), ordered([annToBen, benToAnn, benFailed]).slice(2))
  const received = await get(`/v1/transfers/${annToBen}?expand=sourceAccount,destinationAccount,sourceCustomer`, as(ben))
  t.equal(received.statusCode, 200, 'a transfer the customer receives is readable')
  t.match(
    received.json(),
    { sourceAccount: null, sourceCustomer: null, destinationAccount: { id: benUsd } },
    "the sender's objects are not ben's",
  )
})
