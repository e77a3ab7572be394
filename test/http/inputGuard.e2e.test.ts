// The request boundary refuses text the service could not store (U+0000, unpaired surrogates) in
// bodies at any depth, keys included, in path parameters and in query strings; bounds nesting;
// refuses reserved and duplicate keys, and charsets other than UTF-8. Every refusal is a 400 (415
// for the charset) in the one error body naming the field, and appends no event.
import t, { type Test } from 'tap'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)
const json = { 'content-type': 'application/json' }

const eventCount = async () => (await h.runtime.store.readAll({ maxCount: 10_000 })).length

type ErrorBody = {
  error: string
  code?: string
  statusCode: number
  requestId: string
  message: string
  details?: { field: string; message: string }[]
}

async function refused(
  t: Test,
  request: { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: string | object; headers?: Record<string, string> },
  field: string,
  status = 400,
) {
  const before = await eventCount()
  const res = await h.request({ ...request, ...(typeof request.payload === 'string' ? { headers: { ...json, ...request.headers } } : {}) })
  t.equal(res.statusCode, status, `${request.method} ${request.url}: ${res.body.slice(0, 200)}`)
  const body = res.json() as ErrorBody
  t.equal(body.statusCode, status)
  t.equal(body.requestId, res.headers['x-request-id'])
  if (status === 400) {
    t.equal(body.error, 'BadRequestError')
    t.ok(
      body.details?.some((d) => d.field === field),
      `details name ${field}: ${JSON.stringify(body.details)}`,
    )
  }
  t.notMatch(res.body, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/, 'no raw control byte in the response')
  t.equal(await eventCount(), before, 'no event appended')
  return body
}

t.test('NUL and unpaired surrogates in a body: 400 naming the field, no event', async (t) => {
  await refused(
    t,
    { method: 'POST', url: '/v1/customers/individuals', payload: '{"firstName":"A\\u0000b","lastName":"L"}' },
    'body.firstName',
  )
  await refused(t, { method: 'POST', url: '/v1/customers/individuals', payload: { firstName: 'A', lastName: 'L\ud800' } }, 'body.lastName')
  await refused(
    t,
    { method: 'POST', url: '/v1/customers/individuals', payload: { firstName: 'A', lastName: 'L', metadata: { x: 'a\u0000' } } },
    'body.metadata.x',
  )
  await refused(
    t,
    { method: 'POST', url: '/v1/customers/individuals', payload: { firstName: 'A', lastName: 'L', metadata: { 'k\u0000': 'v' } } },
    'body.metadata.k\\u0000',
  )
  await refused(
    t,
    {
      method: 'POST',
      url: '/v1/customers/individuals',
      payload: { firstName: 'A', lastName: 'L', metadata: { a: [{ b: 'x' }, { c: '\udc00' }] } },
    },
    'body.metadata.a.1.c',
  )
  await refused(
    t,
    { method: 'POST', url: '/v1/webhooks/endpoints', payload: '{"url":"https://example.com/h","description":"\\ud800"}' },
    'body.description',
  )
  // A paired surrogate is a real character and passes.
  const emoji = await h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: { url: 'https://example.com/h', description: 'ok \ud83d\ude00' },
  })
  t.equal(emoji.statusCode, 201)
  t.equal(emoji.json().description, 'ok \u{1F600}')
})

t.test('NUL in a path parameter or a query string: 400, never reaching Postgres', async (t) => {
  await refused(t, { method: 'GET', url: '/v1/customers/%00' }, 'params.id')
  await refused(t, { method: 'GET', url: '/v1/webhooks/endpoints/ep_%00x' }, 'params.endpointId')
  await refused(t, { method: 'GET', url: '/v1/webhooks/messages?tag=%00' }, 'query.tag')
  await refused(t, { method: 'GET', url: '/v1/webhooks/messages?tag=a&tag=b%00' }, 'query.tag')
  await refused(t, { method: 'GET', url: '/v1/customers?starting_after=cus_%00' }, 'query.starting_after')
  await refused(t, { method: 'GET', url: '/v1/customers?x%00=1' }, 'query.x\\u0000')
  await refused(t, { method: 'GET', url: '/v1/customers?__proto__=1' }, 'query.__proto__')
})

t.test('a body nested 10 000 levels: 400, not a stack overflow', async (t) => {
  const depth = 10_000
  const deepObject = `{"url":"https://example.com/h","metadata":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`
  await refused(t, { method: 'POST', url: '/v1/webhooks/endpoints', payload: deepObject }, `body.metadata${'.a'.repeat(31)}`)
  const deepArray = `{"firstName":"A","lastName":"L","metadata":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`
  await refused(t, { method: 'POST', url: '/v1/customers/individuals', payload: deepArray }, `body.metadata.x${'.0'.repeat(30)}`)
})

t.test('metadata: at most 5 levels and 500 entries, checked before its size', async (t) => {
  const nest = (levels: number) => {
    let value: Record<string, unknown> = { leaf: 1 }
    for (let i = 1; i < levels; i++) value = { n: value }
    return value
  }
  const five = await h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: { url: 'https://example.com/h', metadata: nest(5) },
  })
  t.equal(five.statusCode, 201, 'five levels pass')
  const six = await refused(
    t,
    { method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'https://example.com/h', metadata: nest(6) } },
    'body.metadata',
  )
  t.match(six.details?.[0]?.message, /at most 5 levels/)
  const wide = await refused(
    t,
    { method: 'PUT', url: `/v1/webhooks/endpoints/${five.json().id}`, payload: { metadata: { a: Array.from({ length: 600 }, () => 0) } } },
    'body.metadata',
  )
  t.match(wide.details?.[0]?.message, /at most 500 keys and array items/)
  const customer = await refused(
    t,
    { method: 'POST', url: '/v1/customers/individuals', payload: { firstName: 'A', lastName: 'L', metadata: nest(6) } },
    'body.metadata',
  )
  t.match(customer.details?.[0]?.message, /at most 5 levels/)
})

t.test('__proto__, constructor and prototype are refused as keys at any depth', async (t) => {
  for (const key of ['__proto__', 'constructor', 'prototype']) {
    await refused(
      t,
      { method: 'POST', url: '/v1/webhooks/endpoints', payload: `{"url":"https://example.com/h","${key}":{"x":1}}` },
      `body.${key}`,
    )
    await refused(
      t,
      { method: 'POST', url: '/v1/webhooks/endpoints', payload: `{"url":"https://example.com/h","metadata":{"a":{"${key}":1}}}` },
      `body.metadata.a.${key}`,
    )
  }
  // Spelled with escapes, it is the same key.
  await refused(
    t,
    { method: 'POST', url: '/v1/webhooks/endpoints', payload: '{"url":"https://example.com/h","metadata":{"\\u005f_proto__":1}}' },
    'body.metadata.__proto__',
  )
  t.equal(({} as Record<string, unknown>).x, undefined, 'nothing polluted')
})

t.test('duplicate keys are refused, however spelled', async (t) => {
  const dup = await refused(
    t,
    { method: 'POST', url: '/v1/webhooks/endpoints', payload: '{"url":"https://evil.example/h","url":"https://example.com/h"}' },
    'body.url',
  )
  t.match(dup.details?.[0]?.message, /duplicate key/)
  await refused(
    t,
    { method: 'POST', url: '/v1/customers/individuals', payload: '{"firstName":"A","lastName":"L","metadata":{"k":1,"\\u006b":2}}' },
    'body.metadata.k',
  )
  // The same key in two different objects is fine.
  const ok = await h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    headers: json,
    payload: '{"url":"https://example.com/h","metadata":{"a":{"k":1},"b":{"k":2}}}',
  })
  t.equal(ok.statusCode, 201, ok.body)
})

t.test('a charset other than UTF-8 is 415; bytes that are not UTF-8 are 400', async (t) => {
  for (const contentType of ['application/json; charset=utf-16', 'application/json; charset="latin1"', 'application/json;charset=UTF-32']) {
    const before = await eventCount()
    const res = await h.request({
      method: 'POST',
      url: '/v1/webhooks/endpoints',
      headers: { 'content-type': contentType },
      payload: '{"url":"https://example.com/h"}',
    })
    t.equal(res.statusCode, 415, contentType)
    t.match(res.json(), { error: 'UnsupportedMediaTypeError', statusCode: 415, requestId: res.headers['x-request-id'] })
    t.equal(await eventCount(), before)
  }
  for (const contentType of ['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json']) {
    const res = await h.request({
      method: 'POST',
      url: '/v1/webhooks/endpoints',
      headers: { 'content-type': contentType },
      payload: '{"url":"https://example.com/h"}',
    })
    t.equal(res.statusCode, 201, contentType)
  }
  const latin1 = Buffer.concat([Buffer.from('{"url":"https://example.com/h","description":"caf'), Buffer.from([0xe9]), Buffer.from('"}')])
  const bad = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', headers: json, payload: latin1 })
  t.equal(bad.statusCode, 400)
  t.equal(bad.json().code, 'invalid_json')
  const text = await h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    headers: { 'content-type': 'text/plain' },
    payload: '{"url":"https://example.com/h"}',
  })
  t.equal(text.statusCode, 415, 'only JSON bodies')
})

// A name is one line (issue 24, D11): tab and line feed are control characters there too.
t.test('names refuse control characters (tab and newline included) and bidi overrides; letters pass', async (t) => {
  for (const bad of ['A\u0001b', 'A\u001bb', 'A\u007fb', 'A\u0085b', 'A\u202eb', 'A\u2066b', 'A\u2069b', 'A\u202ab', 'A\tB', 'A\nB']) {
    const res = await refused(
      t,
      { method: 'POST', url: '/v1/customers/individuals', payload: { firstName: bad, lastName: 'L' } },
      'body.firstName',
    )
    t.match(res.details?.find((d) => d.field === 'body.firstName')?.message, /control characters|bidirectional/)
  }
  await refused(
    t,
    {
      method: 'POST',
      url: '/v1/customers/businesses',
      payload: { businessName: 'Acme\u202e Ltd', email: 'ops@acme.example', countryCode: 'US' },
    },
    'body.businessName',
  )
  // A file name with a right-to-left override reads "invoice_exe.pdf" while it is "invoice_\u202efdp.exe".
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]).toString('base64')
  await refused(
    t,
    { method: 'POST', url: '/v1/documents', payload: { fileName: 'invoice_\u202efdp.exe', contentType: 'image/png', content: png } },
    'body.fileName',
  )
  for (const good of ['Zoë', 'José María', 'Nguyễn', '李']) {
    const res = await h.request({ method: 'POST', url: '/v1/customers/individuals', payload: { firstName: good, lastName: 'L' } })
    t.equal(res.statusCode, 201, `${JSON.stringify(good)}: ${res.body.slice(0, 200)}`)
  }
})

t.test('error messages never echo control bytes: ids and unknown routes are escaped', async (t) => {
  const notFound = await h.request({ method: 'GET', url: '/v1/customers/cus_\u0001\u001b[31mred' })
  t.equal(notFound.statusCode, 404)
  t.notMatch(notFound.body, /[\u0001\u001b]/)
  t.match(notFound.json().message, /\\u0001\\u001b/)
  const route = await h.request({ method: 'GET', url: '/v1/nothing\u0007here\u202e' })
  t.equal(route.statusCode, 404)
  t.equal(route.json().code, 'route_not_found')
  t.notMatch(route.body, /[\u0007\u202e]/)
  const long = await h.request({ method: 'GET', url: `/v1/${'x'.repeat(5_000)}/y` })
  t.equal(long.statusCode, 404)
  t.ok(long.json().message.length < 300, 'an unknown path is quoted cut short')
})
