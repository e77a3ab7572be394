// The egress policy at endpoint creation and update, through HTTP, in both environments: what
// can be known now is refused with 422 however it is spelled (literal addresses in every notation
// the URL parser accepts, loopback names, credentials, names that resolve to refused addresses),
// the response never says what a name resolves to; a name that does not resolve is refused in
// production (issue 24, D12) and accepted in sandbox, and a lookup that does not answer in time is accepted.
import t, { type Test } from 'tap'
import { startTestApp, type TestApp } from '../harness/testApp.js'
import type { Resolver } from '../../webhooks/egress/resolveTarget.js'

const FAKE_DNS: Record<string, string[]> = {
  'public.example.test': ['93.184.216.34', '2606:2800:220:1::1'],
  'internal.example.test': ['10.1.2.3'],
  'metadata.example.test': ['169.254.169.254'],
  'v6-metadata.example.test': ['fd00:ec2::254'],
  'mixed.example.test': ['93.184.216.34', '192.168.1.10'],
  'loopback.example.test': ['127.0.0.1'],
}
const HANGING = 'slow.example.test'
// Names not listed do not resolve, as in a test machine without DNS.
const resolver: Resolver = (host) => {
  if (host === HANGING) return new Promise(() => undefined)
  const answers = FAKE_DNS[host]
  if (!answers) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }))
  return Promise.resolve(answers.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) })))
}

const production = await startTestApp(t, { APP_ENV: 'production' }, { resolver })
const sandbox = await startTestApp(t, { APP_ENV: 'sandbox' }, { resolver })

const create = (h: TestApp, url: string) => h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url } })

function assertRefused(t: Test, res: Awaited<ReturnType<typeof create>>, url: string, code = 'webhook_url_not_allowed') {
  t.equal(res.statusCode, 422, `${url}: 422`)
  const body = res.json()
  t.match(body, { error: 'ValidationError', code, statusCode: 422, requestId: String }, `${url}: ${code}`)
  t.same(
    body.details?.map((d: { field: string }) => d.field),
    ['body.url'],
    `${url}: details name body.url`,
  )
  for (const address of ['10.1.2.3', '169.254.169.254', 'fd00:ec2::254', '192.168.1.10', '127.0.0.1']) {
    if (!url.includes(address))
      t.notOk(res.body.includes(address), `${url}: the response does not say what the name resolves to (${address})`)
  }
}

/** Refused everywhere: never public, never loopback, or not allowed in a URL at all. */
const REFUSED_IN_BOTH = [
  'https://169.254.169.254/latest/meta-data/',
  'https://[fd00:ec2::254]/latest/meta-data/',
  'https://10.0.0.7/hook',
  'https://172.16.0.1/hook',
  'https://192.168.0.1/hook',
  'https://100.64.0.1/hook',
  'https://0.0.0.0/hook',
  'https://0/hook',
  'https://[::]/hook',
  'https://[fe80::1]/hook',
  'https://[::ffff:169.254.169.254]/hook',
  'https://[::ffff:10.0.0.1]/hook',
  'https://[64:ff9b::a9fe:a9fe]/hook',
  'https://2852039166/latest/meta-data/', // 169.254.169.254 in decimal
  'https://0xa9fea9fe/latest/meta-data/',
  'https://0251.0376.0251.0376/latest/meta-data/',
  'https://169.254.43518/latest/meta-data/',
  'https://internal.example.test/hook',
  'https://metadata.example.test/latest/meta-data/',
  'https://v6-metadata.example.test/hook',
  'https://mixed.example.test/hook',
  'https://user:secret@public.example.test/hook',
  'https://user@public.example.test/hook',
  'https://:secret@public.example.test/hook',
]

/** Loopback, however written: refused in production, allowed in sandbox (local receivers). */
const LOOPBACK = [
  'https://127.0.0.1/hook',
  'https://127.1/hook',
  'https://127.0.1/hook',
  'https://2130706433/hook',
  'https://0x7f000001/hook',
  'https://0x7f.1/hook',
  'https://0177.0.0.1/hook',
  'https://127.000.000.001/hook',
  'https://%31%32%37.0.0.1/hook',
  'https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/hook', // full-width digits
  'https://127.0.0.1.:8443/hook',
  'https://[::1]/hook',
  'https://[0:0:0:0:0:0:0:1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:7f00:1]/hook',
  'https://localhost/hook',
  'https://LOCALHOST:8443/hook',
  'https://localhost./hook',
  'https://localhost../hook',
  'https://api.localhost/hook',
  'https://a.b.localhost./hook',
  'https://loopback.example.test/hook',
]

t.test('production: every spelling of a non-public destination is refused at creation with 422', async (t) => {
  for (const url of [...REFUSED_IN_BOTH, ...LOOPBACK]) assertRefused(t, await create(production, url), url)
  assertRefused(t, await create(production, 'http://public.example.test/hook'), 'http: in production', 'webhook_url_https_required')
  const list = await production.request({ method: 'GET', url: '/v1/webhooks/endpoints?page_size=1000' })
  t.equal(list.json().data.length, 0, 'nothing was created')
})

t.test('production: public names are accepted, names that do not resolve are refused, slow lookups are accepted', async (t) => {
  assertRefused(t, await create(production, 'https://not-yet-in-dns.example.test/hook'), 'no address', 'webhook_url_unresolvable')
  for (const url of ['https://public.example.test/hook', 'https://93.184.216.34/hook', 'https://[2606:4700:4700::1111]/hook']) {
    const res = await create(production, url)
    t.equal(res.statusCode, 201, `${url}: accepted`)
    t.equal(res.json().url, url, 'stored as given')
  }
  const started = Date.now()
  const slow = await create(production, `https://${HANGING}/hook`)
  t.equal(slow.statusCode, 201, 'a lookup that does not answer in time is accepted (delivery checks again)')
  t.ok(Date.now() - started < 5_000, `and the lookup is bounded (${Date.now() - started} ms)`)
})

t.test('production: an update (PUT) to a refused URL is refused and changes nothing', async (t) => {
  const created = (await create(production, 'https://public.example.test/a')).json()
  for (const url of [
    'https://169.254.169.254/latest/meta-data/',
    'https://2130706433/',
    'https://[::ffff:127.0.0.1]/',
    'https://localhost./',
    'https://x.localhost/',
    'https://internal.example.test/',
    'https://user:pw@public.example.test/',
  ]) {
    const res = await production.request({
      method: 'PUT',
      url: `/v1/webhooks/endpoints/${created.id}`,
      payload: { url, description: 'changed' },
    })
    assertRefused(t, res, `PUT ${url}`)
  }
  const after = (await production.request({ method: 'GET', url: `/v1/webhooks/endpoints/${created.id}` })).json()
  t.same(after, created, 'the endpoint is as it was (no event appended)')
  const ok = await production.request({
    method: 'PUT',
    url: `/v1/webhooks/endpoints/${created.id}`,
    payload: { url: 'https://public.example.test/b' },
  })
  t.equal(ok.statusCode, 200, 'a public URL is accepted on update')
  t.equal(ok.json().url, 'https://public.example.test/b')
})

t.test('sandbox: loopback receivers are allowed, every other non-public destination is refused', async (t) => {
  for (const url of REFUSED_IN_BOTH.map((u) => u.replace('https:', 'http:'))) assertRefused(t, await create(sandbox, url), url)
  for (const url of [
    ...LOOPBACK,
    'http://127.0.0.1:9999/hook',
    'http://localhost:9999/hook',
    'http://public.example.test/hook',
    'http://not-yet-in-dns.example.test/hook',
  ]) {
    t.equal((await create(sandbox, url)).statusCode, 201, `${url}: accepted in sandbox`)
  }
  const created = (await create(sandbox, 'http://127.0.0.1:9999/a')).json()
  const res = await sandbox.request({
    method: 'PUT',
    url: `/v1/webhooks/endpoints/${created.id}`,
    payload: { url: 'http://169.254.169.254/' },
  })
  assertRefused(t, res, 'sandbox PUT to the metadata address')
})
