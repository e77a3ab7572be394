// The limit-cursor page's cursors: a position or, for a list merged from several sequences, a vector
// of positions; each names its list, and one of another list or kind is invalid_cursor.
import t from 'tap'
import { DomainError } from '../../domain/errors.js'
import { decodeCursor, decodeCursorVector, encodeCursor, toLimitCursorPage } from '../../http/pagination/limitCursorPage.js'

const invalid = { name: 'DomainError', code: 'invalid_cursor' }

t.test('a position and a vector come back as they went, in their own list only', async (t) => {
  t.equal(decodeCursor('history:a', encodeCursor('history:a', 42n)), 42n)
  const vector = { transfer: 3n, fx_trade: 0n }
  t.same(decodeCursorVector('events:tfr_1', encodeCursor('events:tfr_1', vector)), vector)
  t.throws(() => decodeCursor('history:b', encodeCursor('history:a', 42n)), invalid, "another list's position")
  t.throws(() => decodeCursorVector('events:tfr_2', encodeCursor('events:tfr_1', vector)), invalid, "another list's vector")
  t.throws(() => decodeCursor('events:tfr_1', encodeCursor('events:tfr_1', vector)), invalid, 'a vector where a position is read')
  t.throws(() => decodeCursorVector('history:a', encodeCursor('history:a', 42n)), invalid, 'a position where a vector is read')
  const forged = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url')
  t.throws(() => decodeCursorVector('l', forged({ l: 'l', v: { Transfer: '1' } })), invalid, 'a key outside [a-z_]')
  t.throws(() => decodeCursorVector('l', forged({ l: 'l', v: { transfer: '-1' } })), invalid, 'a negative position')
  const wide = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`s${'_'.repeat(i)}`, '0']))
  t.throws(() => decodeCursorVector('l', forged({ l: 'l', v: wide })), invalid, 'more sequences than a list merges')
  t.throws(() => decodeCursorVector('l', 'not base64 json'), DomainError)
})

t.test('a page whose rows carry a vector: the last row of the page names where the next starts', async (t) => {
  const rows = [1, 2, 3].map((n) => ({ n, after: { transfer: BigInt(n) } }))
  const page = toLimitCursorPage(
    rows,
    { limit: 2 },
    { id: 'events:x', path: '/v1/x' },
    (row) => row.after,
    (row) => row.n,
  )
  t.match(page, { has_more: true, limit: 2, data: [1, 2] })
  t.same(decodeCursorVector('events:x', page.next_cursor!), { transfer: 2n })
  t.equal(page.page_next, `/v1/x?limit=2&cursor=${page.next_cursor}`)
})
