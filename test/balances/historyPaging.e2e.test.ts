// Issue 25, point 8: the balance history paged whole by following page_next from the default page
// equals one large page, also when the entries were written by concurrent commands (decided in one
// batch, so several entries share one stream position).
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { fundIn, usdBalance } from '../transfers/transferWorld.js'

const h = await startTestApp(t)

type Page = { data: { id: string }[]; page_next: string | null; has_more: boolean }

async function page(url: string): Promise<Page> {
  const res = await h.request({ method: 'GET', url })
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`)
  return res.json<Page>()
}

t.test('55 concurrent fund-ins: following page_next lists each entry once, as one large page does', async (t) => {
  const account = await usdBalance(h, null)
  await Promise.all(Array.from({ length: 55 }, () => fundIn(h, account, '0.01')))
  const whole = await page(`/v1/accounts/${account}/balance/transactions?limit=100`)
  t.equal(whole.data.length, 55, 'one page of 100 lists 55 entries')
  const followed: string[] = []
  let next: string | null = `/v1/accounts/${account}/balance/transactions`
  for (let pages = 0; next !== null && pages < 10; pages++) {
    const p = await page(next)
    followed.push(...p.data.map((e) => e.id))
    next = p.page_next
  }
  t.equal(next, null, 'the last page has no page_next')
  t.same(
    followed,
    whole.data.map((e) => e.id),
    'the pages followed equal the large page, in order',
  )
  t.equal(new Set(followed).size, followed.length, 'no entry twice')
})
