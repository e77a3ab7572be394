// Metadata: bounded in keys, key length, depth, entries and bytes; a deep value fails on its depth
// without ever being serialized. Email: zod's format within RFC 5321's length.
import t from 'tap'
import { emailSchema } from '../../../domain/shared/email.js'
import { METADATA_LIMITS as L, metadataSchema } from '../../../domain/shared/metadata.js'

const messages = (value: unknown) => metadataSchema.safeParse(value).error?.issues.map((i) => i.message) ?? []

t.test('metadata within every limit passes unchanged', async (t) => {
  const value = { orderId: 'o_1', tags: ['a', 'b'], nested: { level: { three: { four: 1 } } } }
  t.same(metadataSchema.parse(value), value)
})

t.test('each limit refuses with its own message', async (t) => {
  const tooMany = Object.fromEntries(Array.from({ length: L.maxKeys + 1 }, (_, i) => [`k${i}`, i]))
  t.same(messages(tooMany), [`at most ${L.maxKeys} keys`])
  t.ok(messages({ ['k'.repeat(L.keyMaxLength + 1)]: 1 }).length > 0, 'a key too long')
  t.same(messages({ a: { b: { c: { d: { e: {} } } } } }), [`at most ${L.maxDepth} levels deep`])
  t.same(messages({ list: Array.from({ length: L.maxEntries + 1 }, () => 0) }), [`at most ${L.maxEntries} keys and array items in all`])
  t.same(messages({ text: 'x'.repeat(L.maxBytes) }), [`at most ${L.maxBytes} bytes as JSON`])
})

t.test('a value nested far past the limit fails on depth, not with a stack overflow', async (t) => {
  let deep: unknown = {}
  for (let i = 0; i < 100_000; i++) deep = { d: deep }
  t.same(messages({ deep }), [`at most ${L.maxDepth} levels deep`])
})

t.test('email', async (t) => {
  t.equal(emailSchema.parse('ana@example.com'), 'ana@example.com')
  t.notOk(emailSchema.safeParse('not an email').success)
  t.notOk(emailSchema.safeParse(`${'a'.repeat(250)}@example.com`).success, 'longer than 254 characters')
})
