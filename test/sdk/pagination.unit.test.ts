// client.paginate over a fake service: each paging shape the service answers (cursor pages with page_next,
// the balance history's limit/cursor pages, offset pages, offset-shaped lists paged by cursor) is walked to
// its end with the caller's filters kept, backwards with ending_before, and never past its page bound.
import t from 'tap'
import { PaymentsApiError, PaymentsPaginationError, createPaymentsClient } from '../../sdk/src/index.js'
import { nextPageQuery } from '../../sdk/src/pagination.js'
import { type Responder, fakeFetch, json } from './fakeFetch.js'

const NO_RETRY = { maxRetries: 0 }

function clientOver(responder: Responder) {
  const fake = fakeFetch(responder)
  const client = createPaymentsClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_x', fetch: fake.fetch, retry: NO_RETRY })
  return { client, sent: fake.sent, queries: () => fake.sent.map((r) => `${r.url.pathname}${r.url.search}`) }
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

const cursorPage = (ids: string[], pageNext: string | null, pagePrev: string | null = null) => ({
  has_more: pageNext !== null,
  page_size: 2,
  url: '/v1/transfers',
  data: ids.map((id) => ({ id })),
  page_next: pageNext,
  page_prev: pagePrev,
})

t.test('cursor pages: page_next is followed to the end, the filters kept', async (t) => {
  const h = clientOver((r) =>
    r.url.searchParams.has('starting_after')
      ? json(200, cursorPage(['tfr_1'], null))
      : json(200, cursorPage(['tfr_3', 'tfr_2'], '/v1/transfers?status=COMPLETED&page_size=2&starting_after=tfr_2')),
  )
  const items = await all(h.client.paginate('/v1/transfers', { query: { status: 'COMPLETED', page_size: 2, expand: ['sourceAccount'] } }))
  t.same(
    items.map((i) => i.id),
    ['tfr_3', 'tfr_2', 'tfr_1'],
    'every item, in order',
  )
  t.same(h.queries(), [
    '/v1/transfers?status=COMPLETED&page_size=2&expand=sourceAccount',
    '/v1/transfers?status=COMPLETED&expand=sourceAccount&page_size=2&starting_after=tfr_2',
  ])
  t.equal(h.sent[1]!.headers.get('authorization'), 'Bearer sk_sandbox_x', 'every page with the key')
})

t.test('a walk started with ending_before goes on towards newer items (page_prev)', async (t) => {
  const h = clientOver((r) =>
    r.url.searchParams.get('ending_before') === 'tfr_5'
      ? json(
          200,
          cursorPage(['tfr_7', 'tfr_6'], '/v1/transfers?page_size=2&starting_after=tfr_6', '/v1/transfers?page_size=2&ending_before=tfr_7'),
        )
      : json(200, cursorPage(['tfr_8'], '/v1/transfers?page_size=2&starting_after=tfr_8', null)),
  )
  const items = await all(h.client.paginate('/v1/transfers', { query: { page_size: 2, ending_before: 'tfr_5' } }))
  t.same(
    items.map((i) => i.id),
    ['tfr_7', 'tfr_6', 'tfr_8'],
  )
  t.equal(h.queries()[1], '/v1/transfers?page_size=2&ending_before=tfr_7')
})

t.test('limit/cursor pages (the balance history): the opaque cursor is followed, the path parameters kept', async (t) => {
  const h = clientOver((r) =>
    r.url.searchParams.get('cursor') === 'c2'
      ? json(200, { has_more: false, limit: 2, url: '/x', data: [{ id: 'btx_1' }], next_cursor: null, page_next: null })
      : json(200, {
          has_more: true,
          limit: 2,
          url: '/x',
          data: [{ id: 'btx_3' }, { id: 'btx_2' }],
          next_cursor: 'c2',
          page_next: '/v1/accounts/ba_1/balance/transactions?limit=2&cursor=c2',
        }),
  )
  const items = await all(h.client.paginate('/v1/accounts/{id}/balance/transactions', { path: { id: 'ba_1' }, query: { limit: 2 } }))
  t.equal(items.length, 3)
  t.same(h.queries(), ['/v1/accounts/ba_1/balance/transactions?limit=2', '/v1/accounts/ba_1/balance/transactions?limit=2&cursor=c2'])
})

t.test('offset pages: by offset until total; an offset-shaped list walked by cursor stays on the cursor', async (t) => {
  const routes = [{ id: 'fr_1' }, { id: 'fr_2' }, { id: 'fr_3' }, { id: 'fr_4' }, { id: 'fr_5' }]
  const h = clientOver((r) => {
    const offset = Number(r.url.searchParams.get('offset') ?? 0)
    return json(200, { data: routes.slice(offset, offset + 2), total: 5, limit: 2, offset })
  })
  const items = await all(
    h.client.paginate('/v1/customers/{customerId}/fixed-routes', { path: { customerId: 'cus_1' }, query: { limit: 2 } }),
  )
  t.same(
    items.map((i) => i.id),
    routes.map((r) => r.id),
  )
  t.same(
    h.queries().map((q) => q.split('?')[1]),
    ['limit=2', 'limit=2&offset=2', 'limit=2&offset=4'],
  )

  const parties = [{ id: 'cp_9' }, { id: 'cp_8' }, { id: 'cp_7' }]
  const c = clientOver((r) => {
    const after = parties.findIndex((p) => p.id === r.url.searchParams.get('starting_after')) + 1
    return json(200, { data: parties.slice(after, after + 2), total: 3, limit: 2, offset: after })
  })
  const walked = await all(c.client.paginate('/v1/counterparties', { query: { page_size: 2, starting_after: 'cp_9' } }))
  t.same(
    walked.map((p) => p.id),
    ['cp_8', 'cp_7'],
  )
  t.same(
    c.queries().map((q) => q.split('?')[1]),
    ['page_size=2&starting_after=cp_9'],
    'the last page is known from total: no empty request',
  )
})

t.test('past the service offset bound, an offset walk goes on by cursor', async (t) => {
  const page = { data: [{ id: 'a' }, { id: 'b' }], total: 200_000, limit: 2, offset: 99_999 }
  t.same(nextPageQuery(page, { status: 'X', limit: 2, offset: 99_999 }), { status: 'X', page_size: 2, starting_after: 'b' })
  t.same(nextPageQuery({ ...page, offset: 10 }, { limit: 2, offset: 10 }), { limit: 2, offset: 12 })
  t.equal(nextPageQuery({ data: [], total: 3, limit: 2, offset: 2 }, {}), undefined, 'an empty page ends the walk')
  t.throws(() => nextPageQuery({ items: [] }, {}), PaymentsPaginationError, 'an answer that is no page')
})

t.test('a walk is bounded: more pages than maxPages, or a loop, is an error, not a short list', async (t) => {
  const endless = clientOver((r) => {
    const n = Number(r.url.searchParams.get('starting_after') ?? 0)
    return json(200, cursorPage([String(n + 1)], `/v1/transfers?starting_after=${n + 1}`))
  })
  const seen: string[] = []
  const error = await (async () => {
    for await (const item of endless.client.paginate('/v1/transfers', { maxPages: 3 })) seen.push(item.id)
  })().catch((e: unknown) => e)
  t.match(error, { name: 'PaymentsPaginationError', reason: 'max_pages_reached' })
  t.same(seen, ['1', '2', '3'], 'the pages within the bound were given')
  t.equal(endless.sent.length, 3)

  const loop = clientOver(() => json(200, cursorPage(['x'], '/v1/transfers?starting_after=x')))
  await t.rejects(all(loop.client.paginate('/v1/transfers')), { name: 'PaymentsPaginationError', reason: 'page_loop' })
  t.throws(() => endless.client.paginate('/v1/transfers', { maxPages: 0 }), RangeError, 'a bound out of range, at the call')
})

t.test('a failing page ends the walk with its PaymentsApiError', async (t) => {
  const h = clientOver((_r, nth) =>
    nth === 0
      ? json(200, cursorPage(['tfr_2'], '/v1/transfers?starting_after=tfr_2'))
      : json(422, { error: 'ValidationError', code: 'invalid_cursor', message: 'no', statusCode: 422, requestId: 'req_1' }),
  )
  const error = await all(h.client.paginate('/v1/transfers')).catch((e: unknown) => e)
  t.ok(error instanceof PaymentsApiError)
  t.match(error, { status: 422, code: 'invalid_cursor' })
})
