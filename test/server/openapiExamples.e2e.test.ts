// The OpenAPI document's examples are recorded, not invented: with OPENAPI_EXAMPLES=record
// (`npm run openapi:examples`) this drives a fresh app through every operation's fixture request
// (test/proofs/fixtures/registry.ts) and writes server/openapi/recordedExamples.ts with the request
// and answer bodies, secrets replaced by placeholders. Without it, it checks that every operation
// of /api-json has its recorded example, so a new operation fails here until they are recorded again.
import t from 'tap'
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import * as prettier from 'prettier'
import type { RecordedExample, RecordedExamples } from '../../server/openapi/attachExamples.js'
import { RECORDED_EXAMPLES } from '../../server/openapi/recordedExamples.js'
import { openProofApp } from '../proofs/fixtures/openApp.js'
import { fixtureFor, keyFor, urlOf } from '../proofs/fixtures/registry.js'
import { createWorld } from '../proofs/fixtures/world.js'

const RECORDING = process.env.OPENAPI_EXAMPLES === 'record'
const TARGET = fileURLToPath(new URL('../../server/openapi/recordedExamples.ts', import.meta.url))

const EXAMPLE_LIMITS = {
  /** Items kept of any array in an answer: a list's example shows its shape, not the whole test world. */
  maxArrayItems: 2,
  /** Characters kept of a text (HTML) answer. */
  maxTextLength: 4_000,
} as const

/** Secrets as they appear in bodies, and the obvious placeholder each becomes (same prefix, so the shape reads true). */
const SECRETS: [RegExp, string][] = [
  [/whsec_[A-Za-z0-9+/=]+/g, 'whsec_EXAMPLE0SIGNING0SECRET0NOT0REAL0000000='],
  [/sk_(sandbox|live)_agent_[A-Za-z0-9_-]+/g, 'sk_$1_agent_EXAMPLE_KEY_NOT_REAL'],
  [/sk_(sandbox|live)_(?!agent_)[A-Za-z0-9_-]+/g, 'sk_$1_EXAMPLE_KEY_NOT_REAL'],
]
const BINARY_PLACEHOLDER = '(the document’s bytes, as uploaded)'

function redact(value: unknown, trimArrays: boolean): unknown {
  if (typeof value === 'string') return SECRETS.reduce((text, [pattern, placeholder]) => text.replace(pattern, placeholder), value)
  if (Array.isArray(value)) {
    const kept = trimArrays ? value.slice(0, EXAMPLE_LIMITS.maxArrayItems) : value
    return kept.map((item) => redact(item, trimArrays))
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, redact(child, trimArrays)]))
  }
  return value
}

function answerBody(contentType: string, text: string): unknown {
  if (contentType === 'application/json') return redact(JSON.parse(text), true)
  if (contentType.startsWith('text/')) return redact(text.slice(0, EXAMPLE_LIMITS.maxTextLength), false)
  return BINARY_PLACEHOLDER
}

const proof = await openProofApp(t)

if (RECORDING) {
  t.test('record every operation’s fixture request and its answer', async (t) => {
    const world = createWorld(proof.send, proof.h.org.apiKey, proof.operatorKey)
    const recorded: RecordedExamples = {}
    for (const operation of proof.operations) {
      if (!operation.operationId) {
        t.fail(`${operation.key} has no operationId`)
        continue
      }
      const fixture = fixtureFor(operation)
      const valid = await fixture.build(world)
      const reply = await proof.send({
        method: operation.method,
        url: urlOf(operation, valid),
        ...(valid.body !== undefined ? { payload: valid.body as object } : {}),
        ...(valid.headers ? { headers: valid.headers } : {}),
        apiKey: keyFor(fixture, world),
      })
      if (reply.statusCode < 200 || reply.statusCode > 299) {
        t.fail(`${operation.key}: ${reply.statusCode} ${reply.body.slice(0, 300)}`)
        continue
      }
      const contentType = String(reply.headers['content-type'] ?? 'application/json')
        .split(';')[0]!
        .trim()
      const example: RecordedExample = {
        ...(valid.body !== undefined && typeof valid.body === 'object' ? { request: redact(valid.body, false) } : {}),
        response: { status: String(reply.statusCode), contentType, body: answerBody(contentType, reply.body) },
      }
      recorded[operation.operationId] = example
    }
    const sorted = Object.fromEntries(Object.entries(recorded).sort(([a], [b]) => a.localeCompare(b)))
    const source =
      '// Written by `npm run openapi:examples` (test/server/openapiExamples.e2e.test.ts): each operation’s\n' +
      '// fixture request and the service’s answer, secrets replaced by placeholders. Do not edit by hand.\n' +
      "import type { RecordedExamples } from './attachExamples.js'\n\n" +
      `export const RECORDED_EXAMPLES: RecordedExamples = ${JSON.stringify(sorted)}\n`
    const options = (await prettier.resolveConfig(TARGET)) ?? {}
    await writeFile(TARGET, await prettier.format(source, { ...options, filepath: TARGET }))
    t.equal(Object.keys(sorted).length, proof.operations.length, `${Object.keys(sorted).length} operations recorded`)
  })
} else {
  t.test('every operation has a recorded example (npm run openapi:examples records them)', async (t) => {
    const ids = new Set<string>()
    for (const operation of proof.operations) {
      if (!operation.operationId) {
        t.fail(`${operation.key} has no operationId`)
        continue
      }
      ids.add(operation.operationId)
      const recorded = Object.hasOwn(RECORDED_EXAMPLES, operation.operationId) ? RECORDED_EXAMPLES[operation.operationId] : undefined
      t.ok(recorded, `${operation.operationId} (${operation.key}) has a recorded example`)
      if (recorded && operation.body) t.not(recorded.request, undefined, `${operation.operationId}: its request body recorded`)
    }
    t.same(
      Object.keys(RECORDED_EXAMPLES).filter((id) => !ids.has(id)),
      [],
      'no example of an operation the document no longer has',
    )
  })
}
