// The console's built files at /console/ (issue 30, point 4), from a tiny fixture dist: files as
// they are, an SPA fallback to index.html for page paths, a 404 for a missing asset, nothing outside
// the directory, the strict Content-Security-Policy and the usual headers on every answer; and a
// 503 page that says how to build the console while it is not built.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { CONSOLE_CSP } from '../../server/console/consoleHeaders.js'
import { startTestApp } from '../harness/testApp.js'

type TapLike = Parameters<typeof startTestApp>[0]

const INDEX = '<!doctype html><html><head><script type="module" src="/console/assets/app-1a2b3c.js"></script></head><body></body></html>'
const SCRIPT = 'console.log("console")\n'

async function fixtureDist(t: TapLike): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'console-dist-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await mkdir(path.join(dir, 'assets'))
  await writeFile(path.join(dir, 'index.html'), INDEX)
  await writeFile(path.join(dir, 'assets', 'app-1a2b3c.js'), SCRIPT)
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  await writeFile(path.join(dir, '.env'), 'SECRET=do-not-serve')
  return dir
}

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
}

t.test('the CSP is strict', async (t) => {
  for (const directive of [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ]) {
    t.ok(CONSOLE_CSP.split('; ').includes(directive), directive)
  }
  t.notOk(CONSOLE_CSP.includes('unsafe'), 'no unsafe-inline, no unsafe-eval')
})

t.test('a built console', async (t) => {
  const dist = await fixtureDist(t)
  const h = await startTestApp(t, { CONSOLE_DIST_DIR: dist })
  const get = (url: string) => h.request({ method: 'GET', url, apiKey: null })

  const bare = await get('/console')
  t.equal(bare.statusCode, 302)
  t.equal(bare.headers.location, '/console/')

  const index = await get('/console/')
  t.equal(index.statusCode, 200)
  t.equal(index.body, INDEX)
  t.match(index.headers['content-type'], /^text\/html/)
  t.match(index.headers, SECURITY_HEADERS, 'CSP and the usual headers')
  t.equal(index.headers['cache-control'], 'no-cache', 'the page is revalidated (it names the new assets after a build)')
  t.equal(index.headers['strict-transport-security'], undefined, 'no HSTS in sandbox')

  const script = await get('/console/assets/app-1a2b3c.js')
  t.equal(script.statusCode, 200)
  t.equal(script.body, SCRIPT)
  t.match(script.headers['content-type'], /javascript/)
  t.match(script.headers['cache-control'], /max-age=31536000.*immutable/, 'hashed assets are kept a year')
  t.match(script.headers, SECURITY_HEADERS)

  const icon = await get('/console/favicon.svg')
  t.equal(icon.statusCode, 200)
  t.match(icon.headers['content-type'], /svg/)

  for (const page of ['/console/transfers', '/console/transfers/tfr_0123', '/console/webhooks/endpoints/ep_1/messages']) {
    const reply = await get(page)
    t.equal(reply.statusCode, 200, `${page}: the app's page`)
    t.equal(reply.body, INDEX, `${page}: index.html`)
    t.match(reply.headers, SECURITY_HEADERS)
  }

  const missing = await get('/console/assets/app-000000.js')
  t.equal(missing.statusCode, 404, 'a missing asset is a 404, not the page')
  t.match(missing.headers, SECURITY_HEADERS)

  const dotfile = await get('/console/.env')
  t.notOk(dotfile.body.includes('do-not-serve'), 'no dotfile')
  for (const escape of ['/console/../package.json', '/console/%2e%2e/package.json', '/console/assets/..%2f..%2fpackage.json']) {
    const reply = await get(escape)
    t.notOk(reply.body.includes('"name": "payments-fx-onboarding"'), `${escape}: nothing outside the directory (${reply.statusCode})`)
  }

  const session = await get('/console/session')
  t.equal(session.statusCode, 401, '/console/session is the session route, not a page')
  for (const url of ['/console/session/', '/console/session/extra']) {
    const reply = await get(url)
    t.equal(reply.statusCode, 404, `${url}: the session routes' subtree holds no page`)
    t.match(JSON.parse(reply.body), { code: 'route_not_found' })
  }
})

t.test('before the console is built', async (t) => {
  const h = await startTestApp(t, { CONSOLE_DIST_DIR: path.join(tmpdir(), 'no-console-here') })
  for (const url of ['/console/', '/console/transfers']) {
    const reply = await h.request({ method: 'GET', url, apiKey: null })
    t.equal(reply.statusCode, 503, `${url}: 503`)
    t.match(reply.headers['content-type'], /^text\/html/)
    t.match(reply.body, /npm run build:console/, 'says how to build it')
    t.match(reply.headers, SECURITY_HEADERS, 'with the same headers')
  }
  const sessionPath = await h.request({ method: 'GET', url: '/console/session/', apiKey: null })
  t.equal(sessionPath.statusCode, 404, 'not the 503 page: the session routes are up')
  const api = await h.request({ method: 'GET', url: '/v1/customers' })
  t.equal(api.statusCode, 200, 'the API works meanwhile')
})
