// Idempotency keys and retries under every SDK call: a write always carries one key (the caller's or a
// fresh UUID) and keeps it on every retry; dropped connections, timeouts, 429, 503 and a key still in progress
// are retried a bounded number of times (waiting Retry-After when not too long); nothing else; a caller's abort ends it.
import t from 'tap'
import { PaymentsNetworkError } from '../../sdk/src/index.js'
import { newIdempotencyKey } from '../../sdk/src/idempotency.js'
import { type RetryPolicy, retryPolicyOf, retryingFetch } from '../../sdk/src/retryingFetch.js'
import { fakeFetch, hangs, json } from './fakeFetch.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** A retrying fetch over `responder` whose waits are recorded, not slept. */
function harness(responder: Parameters<typeof fakeFetch>[0], policy: Partial<RetryPolicy> = {}) {
  const fake = fakeFetch(responder)
  const waits: number[] = []
  const send = retryingFetch(fake.fetch, retryPolicyOf(policy), {
    sleep: async (ms) => {
      waits.push(ms)
    },
    random: () => 0.5,
  })
  return { ...fake, waits, send }
}

const post = (init: RequestInit = {}) => new Request('http://api.test/v1/things', { method: 'POST', body: '{"a":1}', ...init })

t.test('a write gets a fresh UUID key; a caller key is kept; a read gets none', async (t) => {
  const h = harness(() => json(201, {}))
  await h.send(post())
  await h.send(post())
  await h.send(post({ headers: { 'Idempotency-Key': 'mine-1' } }))
  for (const method of ['PUT', 'PATCH', 'DELETE']) await h.send(new Request('http://api.test/v1/things/1', { method }))
  await h.send(new Request('http://api.test/v1/things'))
  const keys = h.sent.map((r) => r.headers.get('idempotency-key'))
  t.match(keys[0], UUID, 'a version 4 UUID')
  t.not(keys[0], keys[1], 'a new one per call')
  t.equal(keys[2], 'mine-1', "the caller's own")
  t.ok(
    keys.slice(3, 6).every((k) => k !== null && UUID.test(k)),
    'PUT, PATCH and DELETE too',
  )
  t.equal(keys[6], null, 'GET carries none')
  t.equal(h.sent[0]!.body, '{"a":1}', 'the body is sent')
  t.match(newIdempotencyKey(), UUID)
})

t.test('a dropped connection is retried with the same key and body, then answered', async (t) => {
  const h = harness((_r, nth) => {
    if (nth < 2) throw new TypeError('fetch failed')
    return json(201, { id: 'x' })
  })
  const response = await h.send(post())
  t.equal(response.status, 201)
  t.equal(h.sent.length, 3, 'two retries')
  t.equal(new Set(h.sent.map((r) => r.headers.get('idempotency-key'))).size, 1, 'one key on every attempt')
  t.ok(
    h.sent.every((r) => r.body === '{"a":1}'),
    'the same body every time',
  )
  t.same(h.waits, [225, 450], 'backoff between half and all of base * 2^(n-1) (300 ms, then 600 ms)')
})

t.test('the retries are bounded: the last failure is a PaymentsNetworkError', async (t) => {
  const h = harness(() => {
    throw new TypeError('fetch failed')
  })
  const error = await h.send(post()).catch((e: unknown) => e)
  t.ok(error instanceof PaymentsNetworkError)
  t.match(error, { kind: 'network', attempts: 3 })
  t.equal(h.sent.length, 3)
  const none = harness(
    () => {
      throw new TypeError('fetch failed')
    },
    { maxRetries: 0 },
  )
  await t.rejects(none.send(post()), PaymentsNetworkError)
  t.equal(none.sent.length, 1, 'maxRetries 0: one attempt')
})

t.test('429 and 503 wait their Retry-After; a too-long one, or none left, is the answer', async (t) => {
  const h = harness((_r, nth) =>
    nth === 0 ? json(429, { code: 'rate_limited' }, { 'retry-after': '2' }) : nth === 1 ? json(503, {}) : json(200, { ok: true }),
  )
  t.equal((await h.send(post())).status, 200)
  t.same(h.waits, [2_000, 450], 'Retry-After in seconds, else the backoff')
  const long = harness(() => json(503, { code: 'database_unavailable' }, { 'retry-after': '120' }))
  const answer = await long.send(post())
  t.equal(answer.status, 503, 'a Retry-After over maxRetryAfterMs is not waited for')
  t.equal(long.sent.length, 1)
  const always = harness(() => json(503, {}))
  t.equal((await always.send(post())).status, 503, 'after the last retry, the 503 itself')
  t.equal(always.sent.length, 3)
})

t.test('the 409 of a key still in progress is retried; any other 409 is the answer', async (t) => {
  const inProgress = { error: 'ConflictError', code: 'idempotency_request_in_progress', message: 'retry shortly', statusCode: 409 }
  const h = harness((_r, nth) => (nth === 0 ? json(409, inProgress) : json(201, { id: 'x' })))
  t.equal((await h.send(post())).status, 201)
  t.equal(h.sent.length, 2)
  t.equal(h.sent[0]!.headers.get('idempotency-key'), h.sent[1]!.headers.get('idempotency-key'), 'with the same key')
  const reused = harness(() => json(409, { ...inProgress, code: 'idempotency_key_reused' }))
  t.equal((await reused.send(post())).status, 409)
  t.equal(reused.sent.length, 1, 'a reused key is not retried')
})

t.test('other answers are never retried', async (t) => {
  for (const status of [400, 401, 404, 409, 422, 500, 502]) {
    const h = harness(() => json(status, {}))
    t.equal((await h.send(post())).status, status)
    t.equal(h.sent.length, 1, `${status}: one attempt`)
  }
})

t.test('an attempt that outlives the timeout is abandoned and retried; all of them: a timeout error', async (t) => {
  // AbortSignal.timeout's timer does not keep Node running (a real request's socket does): this does.
  const alive = setInterval(() => undefined, 1_000)
  t.teardown(() => clearInterval(alive))
  const h = harness(hangs, { timeoutMs: 20, maxRetries: 1 })
  const error = await h.send(post()).catch((e: unknown) => e)
  t.match(error, { name: 'PaymentsNetworkError', kind: 'timeout', attempts: 2 })
  t.equal(h.sent.length, 2)
  const late = harness((r, nth) => (nth === 0 ? hangs(r) : json(200, {})), { timeoutMs: 20 })
  t.equal((await late.send(post())).status, 200, 'the retry answers')
})

t.test("the caller's abort ends the call at once, unretried", async (t) => {
  const controller = new AbortController()
  const h = harness((r) => {
    controller.abort(new Error('caller gave up'))
    return hangs(r)
  })
  await t.rejects(h.send(post({ signal: controller.signal })), { message: 'caller gave up' })
  t.equal(h.sent.length, 1)
})

t.test('a policy out of its bounds is refused', async (t) => {
  t.throws(() => retryPolicyOf({ maxRetries: 11 }), RangeError)
  t.throws(() => retryPolicyOf({ timeoutMs: 0 }), RangeError)
  t.throws(() => retryPolicyOf({ maxRetryAfterMs: 1.5 }), RangeError)
  t.match(retryPolicyOf({ maxRetries: 5 }), { maxRetries: 5, timeoutMs: 30_000 })
})
