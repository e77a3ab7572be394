// The text rule (issue 24, D11): which control characters a string may hold, and which fields of a
// request schema are declared multi-line, found through every shape a body schema uses.
import t from 'tap'
import { z } from 'zod'
import { controlCharacterProblem, isMultiLineText, multiLinePaths, multiLineText } from '../../../domain/shared/text/index.js'
import { saveBusinessVerificationBody } from '../../../domain/customer/schemas/businessVerification.js'
import { saveIndividualVerificationBody } from '../../../domain/customer/schemas/individualVerification.js'

t.test('one line: no C0, DEL or C1; multi-line: tab and line feed too', async (t) => {
  for (const clean of ['', 'Ada Lovelace', 'Zoë 李 😀', 'a\u00a0b', '100% "quoted" \\ back'])
    t.equal(controlCharacterProblem(clean, 'single'), undefined, JSON.stringify(clean))
  for (const code of [0x00, 0x01, 0x07, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9f])
    t.match(controlCharacterProblem(`a${String.fromCharCode(code)}b`, 'single'), /^must not contain control characters \(found U\+00/)
  t.equal(controlCharacterProblem('line 1\n\tline 2', 'multi'), undefined)
  t.equal(controlCharacterProblem('a\rb', 'multi'), 'must not contain control characters other than tab and line feed (found U+000D)')
  t.match(controlCharacterProblem('a\u0001b', 'multi'), /U\+0001/)
})

t.test('the mark survives describe and optional, and the walk finds it everywhere', async (t) => {
  const prose = multiLineText(z.string().max(10))
  t.ok(isMultiLineText(prose.describe('prose')), 'describe keeps the mark')
  t.notOk(isMultiLineText(z.string()), 'a plain string is one line')
  const schema = z
    .object({
      title: z.string(),
      note: prose.optional(),
      items: z.array(z.object({ remarks: prose.nullable() })),
      byKey: z.record(z.string(), prose),
      choice: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), why: prose }), z.object({ kind: z.literal('b') })]),
      piped: z.object({ text: prose }).pipe(z.object({ text: z.string() })),
      rest: z.object({}).catchall(prose),
    })
    .strict()
  t.same(multiLinePaths(schema), [['note'], ['items', '*', 'remarks'], ['byKey', '*'], ['choice', 'why'], ['piped', 'text'], ['rest', '*']])
})

t.test('the customer forms: descriptions, explanations and document remarks may span lines; names and addresses do not', async (t) => {
  const business = multiLinePaths(saveBusinessVerificationBody).map((p) => p.join('.'))
  for (const field of ['businessDescription', 'accountPurposeExplanation', 'sourceOfFundsDescription', 'supportingDocuments.*.remarks'])
    t.ok(business.includes(field), `business: ${field}`)
  const individual = multiLinePaths(saveIndividualVerificationBody).map((p) => p.join('.'))
  t.ok(individual.includes('sourceOfFundsDescription'), 'individual: sourceOfFundsDescription')
  for (const field of ['firstName', 'address.addressLine1', 'address.city', 'occupation', 'taxIdentificationNumber'])
    t.notOk(individual.includes(field), `individual: ${field} is one line`)
})
