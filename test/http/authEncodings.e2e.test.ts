// Every operation of /api-json needs a key, however its path is spelled: the router decodes
// percent-encoding (`/%761/customers` is `/v1/customers`), so authentication belongs to the matched
// route, not to a test on the raw URL. Each spelling answers 401 in the error body, or 404
// route_not_found when the spelling names a different route; never 2xx, never 5xx.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

const hex = (ch: string) => ch.charCodeAt(0).toString(16).padStart(2, '0')
/** Percent-encodes every character of the path but the slashes. */
const encodeAll = (path: string, upper: boolean) => path.replace(/[^/]/g, (ch) => `%${upper ? hex(ch).toUpperCase() : hex(ch)}`)
/** Percent-encodes every other character, hex case alternating. */
const encodeSome = (path: string) =>
  [...path].map((ch, i) => (ch === '/' || i % 2 === 0 ? ch : `%${i % 4 === 1 ? hex(ch).toUpperCase() : hex(ch)}`)).join('')

/** Spellings the router reads as the same route: these must be exactly 401. */
function sameRoute(path: string): string[] {
  return [
    path,
    path.replace(/^\/v1\//, '/%761/'),
    path.replace(/^\/v1\//, '/%76%31/'),
    encodeAll(path, true),
    encodeAll(path, false),
    encodeSome(path),
    `${path}?x=1`,
  ]
}

/** Spellings that may name another route (404 route_not_found) but must never reach a handler unauthenticated. */
function otherRoutes(path: string): string[] {
  return [
    path.replace(/^\/v1\//, '/%56%31/'), // V1
    path.replace(/^\/v1\//, '/v1%2F'), // an encoded slash the router keeps encoded
    path.replace(/^\/v1\//, '/v1%2f'),
    path.replaceAll('/', '%2F'),
    path.replace(/^\/v1\//, '/%2576%31/'), // double encoding
    path.replace(/^\/v1\//, '//v1/'),
    path.replace(/^\/v1\//, '/v1//'),
    path.replace(/^\/v1\//, '/v1/./'),
    path.replace(/^\/v1\//, '/x/../v1/'),
    `${path}/`,
    path.replace(/\/([^/]+)$/, '/%2F$1'),
  ]
}

t.test('every operation answers 401 without a key, whatever the spelling of its path', async (t) => {
  const doc = (await h.request({ method: 'GET', url: '/api-json', apiKey: null })).json() as {
    paths: Record<string, Record<string, unknown>>
  }
  const all = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((method) => ({ method, path: path.replace(/\{[^}]+\}/g, 'abc123') })),
  )
  // /health and /ready are the open operations (/metrics is not in the document), and the console's session routes trade a
  // key in the body for a cookie (server/console/); every other one is under /v1 and needs a key.
  t.same(
    all.filter((o) => !o.path.startsWith('/v1/')),
    [
      { method: 'get', path: '/health' },
      { method: 'get', path: '/ready' },
      { method: 'get', path: '/console/session' },
      { method: 'post', path: '/console/session' },
      { method: 'delete', path: '/console/session' },
    ],
    'only /health, /ready and the console session are outside /v1',
  )
  const session = await h.request({ method: 'GET', url: '/console/session', apiKey: null })
  t.equal(session.statusCode, 401, 'the console session answers 401 without its cookie')
  const operations = all.filter((o) => o.path.startsWith('/v1/'))
  t.ok(operations.length >= 30, `walks ${operations.length} operations`)

  let checked = 0
  for (const { method, path } of operations) {
    const methods = method === 'get' ? (['GET', 'HEAD'] as const) : [method.toUpperCase() as 'POST' | 'PUT' | 'PATCH' | 'DELETE']
    for (const m of methods) {
      for (const url of sameRoute(path)) {
        const res = await h.request({ method: m, url, apiKey: null })
        checked++
        if (res.statusCode !== 401) t.fail(`${m} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`)
        else if (m !== 'HEAD') {
          const body = res.json()
          if (body.error !== 'Unauthorized' || body.statusCode !== 401 || body.requestId !== res.headers['x-request-id'])
            t.fail(`${m} ${url}: ${res.body}`)
        }
      }
      for (const url of otherRoutes(path)) {
        const res = await h.request({ method: m, url, apiKey: null })
        checked++
        const ok = res.statusCode === 401 || (res.statusCode === 404 && (m === 'HEAD' || res.json().code === 'route_not_found'))
        if (!ok) t.fail(`${m} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`)
        else if (m !== 'HEAD') t.equal(res.json().requestId, res.headers['x-request-id'], `${m} ${url} in the error body`)
      }
    }
  }
  t.ok(checked > 500, `${checked} requests, none reached a handler without a key`)
})

t.test('an encoded path with a valid key reaches the same route', async (t) => {
  const plain = await h.request({ method: 'GET', url: '/v1/webhooks/endpoints' })
  const encoded = await h.request({ method: 'GET', url: '/%761/%77ebhooks/endpoint%73' })
  t.equal(plain.statusCode, 200)
  t.equal(encoded.statusCode, 200)
  t.same(encoded.json().data, plain.json().data)
})

t.test('routes outside /v1 stay open; unknown /v1 routes are 404 in the error body', async (t) => {
  t.equal((await h.request({ method: 'GET', url: '/health', apiKey: null })).statusCode, 200)
  t.equal((await h.request({ method: 'GET', url: '/api-json', apiKey: null })).statusCode, 200)
  const unknown = await h.request({ method: 'GET', url: '/v1/nothing-here', apiKey: null })
  t.equal(unknown.statusCode, 404)
  t.equal(unknown.json().code, 'route_not_found')
})

t.test('the same request spelled two ways is one request for Idempotency-Key', async (t) => {
  const payload = { url: 'https://example.com/idem' }
  const first = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload, headers: { 'idempotency-key': 'spelled-twice' } })
  const second = await h.request({
    method: 'POST',
    url: '/%761/webhooks/%65ndpoints',
    payload,
    headers: { 'idempotency-key': 'spelled-twice' },
  })
  t.equal(first.statusCode, 201)
  t.equal(second.statusCode, 201)
  t.equal(second.headers['idempotent-replayed'], 'true')
  t.equal(second.json().id, first.json().id)
})
