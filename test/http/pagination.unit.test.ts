// The shared page builders: cursor pages and their links, rows fetched backwards, offset pages,
// and the either-mode query every offset-capable list uses.
import t from 'tap'
import { z } from 'zod'
import { inListOrder, toCursorPage } from '../../http/pagination/cursorPage.js'
import { cursorOf, isOffsetMode, offsetOrCursorQuery } from '../../http/pagination/offsetOrCursor.js'
import { toOffsetPage } from '../../http/pagination/offsetPage.js'

const rows = (...ids: string[]) => ids.map((id) => ({ id }))

t.test('a first page with more after it links only to the next page, filters first', async (t) => {
  const page = toCursorPage(
    rows('c', 'b', 'a'),
    { page_size: 2 },
    { path: '/v1/things', filters: new URLSearchParams({ type: 'X', tags: 'a,b' }) },
    (r) => r.id,
  )
  t.same(page, {
    has_more: true,
    page_size: 2,
    url: '/v1/things',
    data: ['c', 'b'],
    page_next: '/v1/things?type=X&tags=a%2Cb&page_size=2&starting_after=b',
    page_prev: null,
  })
})

t.test('a middle page reached forwards links both ways; the last page has no next', async (t) => {
  const middle = toCursorPage(rows('b', 'a'), { page_size: 1, starting_after: 'c' }, { path: '/p' }, (r) => r.id)
  t.equal(middle.page_next, '/p?page_size=1&starting_after=b')
  t.equal(middle.page_prev, '/p?page_size=1&ending_before=b')
  const last = toCursorPage(rows('a'), { page_size: 1, starting_after: 'b' }, { path: '/p' }, (r) => r.id)
  t.equal(last.has_more, false)
  t.equal(last.page_next, null)
  t.equal(last.page_prev, '/p?page_size=1&ending_before=a')
})

t.test('rows fetched backwards are put back in list order with the probe last', async (t) => {
  const query = { page_size: 2, ending_before: 'a' }
  // Walking up from a: b, c, then the probe d.
  const ordered = inListOrder(rows('b', 'c', 'd'), query)
  t.same(
    ordered.map((r) => r.id),
    ['c', 'b', 'd'],
  )
  const page = toCursorPage(ordered, query, { path: '/p' }, (r) => r.id)
  t.same(page.data, ['c', 'b'])
  t.equal(page.page_next, '/p?page_size=2&starting_after=b', 'older items exist: the cursor itself')
  t.equal(page.page_prev, '/p?page_size=2&ending_before=c', 'newer items exist: the probe')
  t.same(
    inListOrder(rows('b'), query).map((r) => r.id),
    ['b'],
    'no probe, nothing appended',
  )
  t.same(
    inListOrder(rows('b', 'a'), { page_size: 1 }).map((r) => r.id),
    ['b', 'a'],
    'forwards: unchanged',
  )
})

t.test('an empty page links nowhere', async (t) => {
  t.same(
    toCursorPage([], { page_size: 50 }, { path: '/p' }, (r: { id: string }) => r.id),
    {
      has_more: false,
      page_size: 50,
      url: '/p',
      data: [],
      page_next: null,
      page_prev: null,
    },
  )
})

t.test('offset pages default limit 50 and offset 0', async (t) => {
  t.same(
    toOffsetPage(rows('a'), 7, {}, (r) => r.id),
    { data: ['a'], total: 7, limit: 50, offset: 0 },
  )
  t.same(
    toOffsetPage([], 7, { limit: 5, offset: 10 }, (r: { id: string }) => r.id),
    { data: [], total: 7, limit: 5, offset: 10 },
  )
})

t.test('the either-mode query: one mode and one cursor per request', async (t) => {
  const query = offsetOrCursorQuery({ kind: z.string().optional() })
  t.ok(query.safeParse({ kind: 'a', limit: '5', offset: '10' }).success)
  t.ok(query.safeParse({ page_size: '5', starting_after: 'x' }).success)
  t.notOk(query.safeParse({ limit: '5', page_size: '5' }).success, 'both modes')
  t.notOk(query.safeParse({ offset: '1', ending_before: 'x' }).success, 'both modes')
  t.notOk(query.safeParse({ starting_after: 'x', ending_before: 'y' }).success, 'two cursors')
  t.notOk(query.safeParse({ offset: '100001' }).success, 'offset bounded')
  const cursor = query.parse({ starting_after: 'x' })
  t.notOk(isOffsetMode(cursor))
  t.same(cursorOf(cursor), { page_size: 50, starting_after: 'x', ending_before: undefined })
  t.ok(isOffsetMode(query.parse({ offset: '0' })))
})
