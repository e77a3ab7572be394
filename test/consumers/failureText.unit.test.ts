// A consumer's failure text: bounded, one line, and without the values that made it fail.
import t from 'tap'
import { z } from 'zod'
import { FAILURE_TEXT_LIMITS, describeFailure } from '../../events/consumers/failureText.js'

t.test('a PostgreSQL error: its code, quoted values left out', async (t) => {
  const error = Object.assign(new Error('invalid input syntax for type uuid: "TAX-ID-123"'), { code: '22P02', severity: 'ERROR' })
  t.equal(describeFailure(error), 'PostgreSQL 22P02: invalid input syntax for type uuid: "…"')
})

t.test('a schema error: field paths and issue codes; keys that are data are not shown', async (t) => {
  const schema = z.object({ name: z.string(), metadata: z.record(z.string(), z.number()) })
  const result = schema.safeParse({ name: 5, metadata: { 'customer TAX-ID-123': 'x' } })
  const text = describeFailure(result.error)
  t.match(text, /^event data does not match its schema: name: invalid_type; metadata\[…\]: invalid_type$/)
  t.notMatch(text, /TAX-ID/)
})

t.test('any error: one bounded line, control characters out', async (t) => {
  const text = describeFailure(new Error(`line\nbreak\u0000 ${'x'.repeat(1_000)}`))
  t.ok(text.length <= FAILURE_TEXT_LIMITS.maxLength)
  t.notMatch(text, /[\n\u0000]/)
  t.match(text, /^Error: line\?break\?/)
  t.equal(describeFailure('a string'), 'non-error thrown: string')
})
