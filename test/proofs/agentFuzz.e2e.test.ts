// The fuzz with an agent key (issue 27: the generic proofs also run with an agent key): the same
// generated requests for every operation of /api-json, built as the platform key's fixtures are, but
// sent with the key of an agent of the world's sender (its balance account paying its bank account:
// the fixtures' balance transfer is within its scope). Asserted as the fuzz asserts: no 5xx, every
// refusal in the one error body, nothing appended by a refused request, caught up and healthy; and
// the agent's own operations answer (some 2xx), the others refuse.
import t from 'tap'
import { describeReport, runFuzz } from './fixtures/fuzzRunner.js'
import { openProofApp } from './fixtures/openApp.js'
import { createWorld } from './fixtures/world.js'

/** As many as the platform key's fuzz (about 15 s alone: most operations are refused before their body is read). */
export const AGENT_FUZZ = { seed: 20_261_129, requests: 5_100 } as const

const seed = Number(process.env.FUZZ_SEED ?? AGENT_FUZZ.seed)
const proof = await openProofApp(t, { PROJECTION_WAIT_MS: '2000' })
// A hang guard, not a speed target (see fuzz.e2e.test.ts).
t.setTimeout(300_000)

t.test(`fuzz with an agent key: ${AGENT_FUZZ.requests} requests from seed ${seed}`, async (t) => {
  const world = createWorld(proof.send, proof.h.org.apiKey)
  const { key } = await world.freshAgentKey()
  proof.h.secrets.add('agent key', key)
  const report = await runFuzz({ ...proof, world }, { seed, count: AGENT_FUZZ.requests, apiKey: key })
  t.comment(describeReport(report))
  t.equal(report.requests, AGENT_FUZZ.requests, 'every planned request was made')
  t.ok((report.statuses[201] ?? 0) + (report.statuses[200] ?? 0) > 0, 'the agent’s own operations answer')
  t.ok((report.statuses[403] ?? 0) > 0, 'the others are refused')
  t.equal(report.failureCount, 0, 'no 5xx, every refusal in the error body, nothing appended by a refusal, caught up, healthy')
})
