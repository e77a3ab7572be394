// Responses made before any route runs use the one error body with a request id in the body and
// in X-Request-Id: a path segment over 100 characters (414), bad percent-encoding (400
// FST_ERR_BAD_URL), headers over 16 KB (431, from Node's HTTP parser). Through a real listening
// server and raw sockets, since inject does not run Node's parser.
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)
await h.app.listen({ port: 0, host: '127.0.0.1' })
const { port } = h.app.server.address() as AddressInfo

type RawResponse = { status: number; headers: Record<string, string>; body: string }

/** Sends `head` (request line and headers, no final blank line) and reads until the server closes or the body is complete. */
function raw(head: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error('no response in 5 s'))
    }, 5_000)
    const finish = () => {
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString('utf8')
      const [top = '', body = ''] = text.split('\r\n\r\n', 2)
      const [statusLine = '', ...lines] = top.split('\r\n')
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body })
    }
    socket.on('data', (chunk) => {
      chunks.push(chunk)
      const text = Buffer.concat(chunks).toString('utf8')
      const split = text.indexOf('\r\n\r\n')
      const length = /content-length:\s*(\d+)/i.exec(text.slice(0, split))
      if (split >= 0 && length && Buffer.byteLength(text.slice(split + 4)) >= Number(length[1])) {
        socket.end()
        finish()
      }
    })
    socket.on('close', () => {
      if (chunks.length) finish()
    })
    socket.on('error', () => undefined) // a reset after the response is fine
    socket.write(`${head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
  })
}

function assertErrorBody(t: Test, res: RawResponse, status: number, error: string, code: string) {
  t.equal(res.status, status)
  t.match(res.headers['content-type'], /^application\/json/)
  t.match(res.headers['x-request-id'], /^req_/, 'X-Request-Id header')
  const body = JSON.parse(res.body)
  t.same(Object.keys(body).sort(), ['code', 'error', 'message', 'requestId', 'statusCode'])
  t.match(body, { error, code, statusCode: status, requestId: res.headers['x-request-id'] })
}

t.test('a path segment over 100 characters: 414 in the error body', async (t) => {
  const res = await raw(`GET /v1/customers/${'a'.repeat(101)} HTTP/1.1\r\nAuthorization: Bearer ${h.org.apiKey}`)
  assertErrorBody(t, res, 414, 'URITooLongError', 'uri_too_long')
  t.notMatch(res.body, /aaaaaaaaaa/, 'the path is not echoed')
  const fits = await raw(`GET /v1/customers/${'a'.repeat(100)} HTTP/1.1\r\nAuthorization: Bearer ${h.org.apiKey}`)
  t.equal(fits.status, 400, '100 characters reach the route and its validation')
  t.equal(JSON.parse(fits.body).details?.[0]?.field, 'params.id')
})

t.test('bad percent-encoding: 400 in the error body', async (t) => {
  for (const path of ['/v1/webhooks/endpoints/%ff%fe', '/v1/customers/%E0%A4%A', '/%76%31/customers/%c0%80']) {
    const res = await raw(`GET ${path} HTTP/1.1\r\nAuthorization: Bearer ${h.org.apiKey}`)
    assertErrorBody(t, res, 400, 'BadRequestError', 'invalid_url')
    t.notMatch(res.body, /FST_ERR|Bad Request"/)
  }
})

t.test('headers over 16 KB: 431 in the error body', async (t) => {
  const res = await raw(`GET /v1/customers HTTP/1.1\r\nAuthorization: Bearer ${h.org.apiKey}\r\nX-Padding: ${'p'.repeat(17 * 1024)}`)
  assertErrorBody(t, res, 431, 'RequestHeaderFieldsTooLargeError', 'headers_too_large')
})

t.test('bytes that are not HTTP: 400 in the error body', async (t) => {
  const res = await raw('NOT HTTP AT ALL\u0001')
  assertErrorBody(t, res, 400, 'BadRequestError', 'invalid_http_request')
})

t.test('the server still answers normally afterwards', async (t) => {
  const res = await raw(`GET /v1/webhooks/endpoints HTTP/1.1\r\nAuthorization: Bearer ${h.org.apiKey}`)
  t.equal(res.status, 200)
  t.match(res.headers['x-request-id'], /^req_/)
})
