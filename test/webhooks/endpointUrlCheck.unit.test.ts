// The creation-time URL check on its own, with a fake resolver: one lookup per host within the
// cache's lifetime, concurrent creations share it, a lookup that hangs or fails (but for "no such
// name" in production) accepts the URL, private-use names are refused without a lookup in
// production, and past the in-flight bound names go unchecked (delivery checks them) instead of queueing.
import t from 'tap'
import { createEndpointUrlChecker } from '../../webhooks/egress/checkEndpointUrl.js'
import { EGRESS_LIMITS, type Resolver } from '../../webhooks/egress/resolveTarget.js'

t.test('answers are shared and reused per host', async (t) => {
  const asked: string[] = []
  const resolver: Resolver = async (host) => {
    asked.push(host)
    return host.startsWith('bad') ? [{ address: '10.0.0.1', family: 4 }] : [{ address: '93.184.216.34', family: 4 }]
  }
  const check = createEndpointUrlChecker('production', { resolver })
  const verdicts = await Promise.all([1, 2, 3].map((i) => check(`https://good.example/${i}`)))
  t.same(verdicts, [{ allowed: true }, { allowed: true }, { allowed: true }])
  t.match(await check('https://bad.example/'), {
    allowed: false,
    refusal: { kind: 'address', detail: 'bad.example resolves to 10.0.0.1 (private); production calls public addresses only' },
  })
  t.match(await check('https://bad.example/again'), { allowed: false })
  t.same(asked, ['good.example', 'bad.example'], 'one lookup per host')
  t.same(
    await check('https://10.0.0.1/'),
    { allowed: false, refusal: { kind: 'address', detail: '10.0.0.1 (private); production calls public addresses only' } },
    'a literal needs no lookup',
  )
  t.same(asked.length, 2)
})

t.test('no answer in time, or a failed lookup, accepts the URL', async (t) => {
  const hanging = createEndpointUrlChecker('production', { resolver: () => new Promise(() => undefined), timeoutMs: 20 })
  t.same(await hanging('https://slow.example/'), { allowed: true })
  const failing = createEndpointUrlChecker('production', {
    resolver: async () => {
      throw new Error('ENOTFOUND')
    },
  })
  t.same(await failing('https://nowhere.example/'), { allowed: true })
})

// Issue 24, D12: what a production endpoint names must resolve now; sandbox receivers may come later.
t.test('a name with no address is refused in production only; a temporary failure is accepted', async (t) => {
  const failWith =
    (code: string): Resolver =>
    async (host) => {
      throw Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code })
    }
  for (const resolver of [failWith('ENOTFOUND'), failWith('ENODATA'), async () => []]) {
    t.same(await createEndpointUrlChecker('production', { resolver })('https://nowhere.example/'), {
      allowed: false,
      refusal: { kind: 'unresolvable', detail: 'nowhere.example has no address in DNS' },
    })
    t.same(await createEndpointUrlChecker('sandbox', { resolver })('https://nowhere.example/'), { allowed: true })
  }
  t.same(await createEndpointUrlChecker('production', { resolver: failWith('EAI_AGAIN') })('https://flaky.example/'), { allowed: true })
})

t.test('private-use names are refused in production before any lookup', async (t) => {
  let asked = 0
  const resolver: Resolver = async () => {
    asked++
    return [{ address: '93.184.216.34', family: 4 }]
  }
  const check = createEndpointUrlChecker('production', { resolver })
  const cases: [string, string][] = [
    ['https://metadata.google.internal/', 'a private-use name (.internal)'],
    ['https://METADATA.GOOGLE.INTERNAL./', 'a private-use name (.internal)'],
    ['https://metadata/computeMetadata/v1/', 'a single-label name'],
    ['https://printer.local:631/', 'a private-use name (.local)'],
    ['https://nas.home.arpa/', 'a private-use name (.home.arpa)'],
    ['https://git.corp/', 'a private-use name (.corp)'],
  ]
  for (const [url, what] of cases) {
    const verdict = await check(url)
    t.match(verdict, { allowed: false, refusal: { kind: 'address' } }, url)
    t.ok(!verdict.allowed && verdict.refusal.detail.includes(`is ${what}`), `${url}: ${what}`)
  }
  t.equal(asked, 0, 'no lookup was made')
  t.same(await check('https://internal.example.com/'), { allowed: true }, 'a public name that merely contains a private-use word')
  t.same(await createEndpointUrlChecker('sandbox', { resolver })('http://printer.local/'), { allowed: true }, 'sandbox: a local receiver')
})

t.test('lookups in flight are bounded: past the bound a name is not looked up', async (t) => {
  let asked = 0
  const release: (() => void)[] = []
  let answerAtOnce = false
  const resolver: Resolver = async () => {
    asked++
    if (answerAtOnce) return [{ address: '10.0.0.1', family: 4 }]
    return new Promise((resolve) => release.push(() => resolve([{ address: '10.0.0.1', family: 4 }])))
  }
  const check = createEndpointUrlChecker('production', { resolver, timeoutMs: 10 })
  const max = EGRESS_LIMITS.maxCreationLookupsInFlight
  const verdicts = await Promise.all(Array.from({ length: max + 3 }, (_, i) => check(`https://host${i}.example/`)))
  t.equal(asked, max, 'no more lookups than the bound, though each timed out on our side')
  t.ok(
    verdicts.every((v) => v.allowed),
    'timed-out and unchecked names are accepted',
  )
  for (const r of release) r()
  answerAtOnce = true
  await new Promise((resolve) => setImmediate(resolve))
  t.match(await check('https://another.example/'), { allowed: false }, 'once the lookups settle, names are looked up again')
})
