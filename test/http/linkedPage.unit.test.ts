// The spec's cursor list shape in both paging modes (http/pagination/linkedPage.ts): url is the
// list's path, links stay in the request's mode with its filters, and an offset page whose next
// offset would pass the bound links its next page by cursor.
import t from 'tap'
import { toLinkedPage } from '../../http/pagination/linkedPage.js'
import { pageText } from '../../http/pagination/pageText.js'
import { MAX_LIST_OFFSET } from '../../http/pagination/offsetPage.js'

const rows = (...ids: string[]) => ids.map((id) => ({ id }))
const links = { path: '/v1/things', filters: new URLSearchParams({ status: 'PENDING' }) }

t.test('offset mode: the same keys as cursor mode, links by offset', async (t) => {
  const page = toLinkedPage(rows('e', 'd', 'c'), { limit: 2, offset: 4 }, links)
  t.same(page, {
    has_more: true,
    page_size: 2,
    url: '/v1/things',
    data: rows('e', 'd'),
    page_next: '/v1/things?status=PENDING&limit=2&offset=6',
    page_prev: '/v1/things?status=PENDING&limit=2&offset=2',
  })
  const first = toLinkedPage(rows('b'), { offset: 0 }, links)
  t.same(
    { has_more: first.has_more, page_size: first.page_size, next: first.page_next, prev: first.page_prev },
    {
      has_more: false,
      page_size: 50,
      next: null,
      prev: null,
    },
  )
})

t.test('offset mode near the bound: the next page continues by cursor', async (t) => {
  const page = toLinkedPage(rows('c', 'b', 'a'), { limit: 2, offset: MAX_LIST_OFFSET - 1 }, links)
  t.equal(page.page_next, '/v1/things?status=PENDING&page_size=2&starting_after=b')
  const atBound = toLinkedPage(rows('c', 'b', 'a'), { limit: 2, offset: MAX_LIST_OFFSET - 2 }, links)
  t.equal(atBound.page_next, `/v1/things?status=PENDING&limit=2&offset=${MAX_LIST_OFFSET}`, 'the bound itself is still an offset')
})

t.test('cursor mode: the cursor page', async (t) => {
  const page = toLinkedPage(rows('c', 'b', 'a'), { page_size: 2, starting_after: 'd' }, links)
  t.same(page, {
    has_more: true,
    page_size: 2,
    url: '/v1/things',
    data: rows('c', 'b'),
    page_next: '/v1/things?status=PENDING&page_size=2&starting_after=b',
    page_prev: '/v1/things?status=PENDING&page_size=2&ending_before=c',
  })
})

t.test('as text: the items spliced in as they are, whatever they hold', async (t) => {
  // `$&`, `$'` and `$$` are replacement patterns to String.replace; here they must stay text.
  const items = [
    { id: 'b', json: JSON.stringify({ id: 'b', note: '$& $\' $` $$ "data":[]' }) },
    { id: 'a', json: '{"id":"a"}' },
  ]
  const page = toLinkedPage([...items, { id: '_', json: '{}' }], { limit: 2, offset: 0 }, links)
  const parsed = JSON.parse(pageText(page)) as Record<string, unknown>
  t.same(parsed, { ...page, data: items.map((item) => JSON.parse(item.json) as unknown) })
  t.same(Object.keys(parsed), ['has_more', 'page_size', 'url', 'data', 'page_next', 'page_prev'])
})
