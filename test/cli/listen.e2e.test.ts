// `listen` and `trigger` as a developer runs them, real processes against the real server process: listen
// prints a signing secret; a triggered event reaches the --forward-to receiver with a signature that verifies
// with it; an unsigned post is refused; a restart takes up the same endpoint and secret; with the target
// down listen answers 502 and the service retries until the target is back.
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { createTestDatabase } from '../harness/testDatabase.js'
import { startServer } from '../proofs/fixtures/serverProcess.js'
import { startReceiver } from '../webhooks/deliveryReceiver.js'
import { freePort, runCli, stderrError, stdoutJson } from './fixtures/runCli.js'
import { type ListenProcess, startListen } from './listenProcess.js'

const server = await startServer({
  DATABASE_URL: await createTestDatabase(t),
  // Short retries, so a delivery refused while the target is down comes again within the test.
  WEBHOOK_RETRY_SCHEDULE_MS: '0,300,600,1000,2000,3000,5000,8000',
})
t.teardown(() => server.kill('SIGKILL'))
const apiKey = server.demoKey
if (!apiKey) throw new Error(`the server printed no demo key: ${server.stdout()}`)
const receiver = await startReceiver()
t.teardown(() => receiver.close())
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'listen-'))
t.teardown(() => rm(dataDir, { recursive: true, force: true }))
const env = { DATA_DIR: dataDir, PAYMENTS_API_KEY: apiKey, PAYMENTS_BASE_URL: server.baseUrl }
const running: ListenProcess[] = []
t.teardown(() => running.forEach((l) => l.kill()))

type Ready = { ready: true; endpointId: string; reused: boolean; secret: string; url: string; forwardTo: string }
type Triggered = { eventType: string; created: Record<string, string>; messages: { id: string; type: string }[] }
type Endpoint = { id: string; url: string; disabled: boolean }

async function listenReady(forwardTo: string, extra: string[] = []): Promise<{ listen: ListenProcess; ready: Ready }> {
  const listen = startListen(['--forward-to', forwardTo, '--json', ...extra], env)
  running.push(listen)
  const ready = (await listen.waitForLine((l) => l.ready === true, 'ready line')) as Ready
  return { listen, ready }
}

const api = async <T>(method: string, url: string) => {
  const response = await fetch(`${server.baseUrl}${url}`, { method, headers: { authorization: `Bearer ${apiKey}` } })
  return (await response.json()) as T
}

async function trigger(type: string): Promise<Triggered> {
  const run = await runCli(['trigger', type], env, { timeoutMs: 60_000 })
  if (run.code !== 0) throw new Error(`trigger ${type}: ${run.code} ${run.stderr}`)
  return stdoutJson<Triggered>(run)
}

let first: Ready

t.test('listen prints a secret; a triggered event arrives signed with it, body and signature intact', async (t) => {
  const { listen, ready } = await listenReady(receiver.url('/hook'))
  first = ready
  t.match(ready.secret, /^whsec_[A-Za-z0-9+/]+=*$/, 'a Standard Webhooks secret')
  t.match(ready.url, /^http:\/\/127\.0\.0\.1:\d+\/webhooks$/, 'its receiver on loopback')
  t.equal(ready.reused, false, 'a first run registers an endpoint')
  const endpoint = await api<Endpoint>('GET', `/v1/webhooks/endpoints/${ready.endpointId}`)
  t.match(endpoint, { url: ready.url, disabled: false }, 'registered with the service, pointing at the receiver')

  const triggered = await trigger('customer.created')
  t.match(triggered.created.customer, /^cus_/, 'trigger prints what it created')
  const messageId = triggered.messages[0]!.id
  await receiver.waitFor((r) => r.some((x) => x.headers['webhook-id'] === messageId), 15_000, 'the forwarded delivery')
  const delivered = receiver.forPath('/hook').find((x) => x.headers['webhook-id'] === messageId)!
  // The signature covers webhook-id, webhook-timestamp and the body's exact bytes: it verifies only if all came through intact.
  const payload = new Webhook(ready.secret).verify(delivered.body, delivered.headers) as { type: string; data: { id: string } }
  t.match(payload, { type: 'customer.created', data: { id: triggered.created.customer } }, 'verified with the printed secret')
  const line = await listen.waitForLine((l) => l.messageId === messageId, 'delivery line')
  t.match(line, { type: 'customer.created', status: 200, answered: 200 }, 'one line per delivery: type, id, the forward status')
  t.match(line.at, /^\d{4}-\d\d-\d\dT/, 'and its time')

  const test = await trigger('webhook.test')
  t.equal(test.messages[0]!.type, 'webhook.test', 'trigger webhook.test goes to the listen endpoint')
  await listen.waitForLine((l) => l.messageId === test.messages[0]!.id && l.status === 200, 'the test event forwarded')
})

t.test('a post that the service did not sign is refused and not forwarded', async (t) => {
  const before = receiver.forPath('/hook').length
  const forged = await fetch(first.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': 'evt_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) },
    body: JSON.stringify({ type: 'customer.created' }),
  })
  t.equal(forged.status, 401)
  const signedWrong = await fetch(first.url, {
    method: 'POST',
    headers: {
      'webhook-id': 'evt_forged2',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    },
    body: '{}',
  })
  t.equal(signedWrong.status, 401)
  t.equal(receiver.forPath('/hook').length, before, 'nothing reached the target')
})

t.test('stopped, the endpoint is disabled; restarted, listen takes it up again with the same secret', async (t) => {
  const listen = running.shift()!
  t.equal(await listen.stop('SIGINT'), 0, 'Ctrl-C is the normal end')
  t.match(listen.stderr(), `endpoint ${first.endpointId} disabled`)
  t.equal((await api<Endpoint>('GET', `/v1/webhooks/endpoints/${first.endpointId}`)).disabled, true, 'disabled while nobody listens')

  // Restarted as a person runs it, without --json: plain lines.
  const plain = startListen(['--forward-to', receiver.url('/hook')], env)
  running.push(plain)
  const readyLine = /^Ready\. Your webhook signing secret is (whsec_\S+) \(endpoint (ep_\w+), every event type\)$/
  await plain.waitForText((l) => readyLine.test(l), 'ready sentence')
  const [, secret, endpointId] = readyLine.exec(plain.text[0]!)!
  t.equal(secret, first.secret, 'the same signing secret')
  t.equal(endpointId, first.endpointId, 'the same endpoint')
  const endpoint = await api<Endpoint>('GET', `/v1/webhooks/endpoints/${first.endpointId}`)
  t.equal(endpoint.disabled, false, 'enabled again')
  t.not(endpoint.url, first.url, 'pointed at the new receiver')

  const test = await trigger('webhook.test')
  const line = await plain.waitForText((l) => l.includes(test.messages[0]!.id), 'delivery line')
  t.match(line, /^\d{4}-\d\d-\d\dT\S+Z {2}webhook\.test {2}evt_\S+ {2}-> 200 \d+ ms$/, 'time, type, message id, status')
  t.equal(await running.shift()!.stop('SIGTERM'), 0)
})

t.test('the target down: listen answers 502 and the service retries until the target is back', async (t) => {
  const port = await freePort()
  const { listen, ready } = await listenReady(`http://127.0.0.1:${port}/down`, ['--events', 'webhook.test,customer.created'])
  t.same(
    (await api<Endpoint & { filterTypes: string[] }>('GET', `/v1/webhooks/endpoints/${ready.endpointId}`)).filterTypes,
    ['webhook.test', 'customer.created'],
    '--events sets the endpoint filter',
  )
  const test = await trigger('webhook.test')
  const messageId = test.messages[0]!.id
  const refused = (l: Record<string, unknown>) => l.messageId === messageId && l.status === 0 && l.answered === 502
  await listen.waitForLine(refused, 'a refused forward')
  await listen.waitForLine((l) => refused(l) && listen.lines.filter(refused).length >= 2, 'a retry')
  type Message = { attempts: { responseStatusCode: number; responseBody: string }[] }
  const attempts = (await api<Message>('GET', `/v1/webhooks/messages/${messageId}`)).attempts
  t.ok(attempts.length >= 2, 'the service attempted it again')
  t.match(attempts[0], { responseStatusCode: 502, responseBody: /listen could not reach/ }, 'it saw 502, with why')

  // The target comes up: a later retry reaches it.
  const bodies: string[] = []
  const target = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', () => {
      if (req.headers['webhook-id'] === messageId) bodies.push(body)
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => target.listen(port, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => target.close(() => resolve())))
  await listen.waitForLine((l) => l.messageId === messageId && l.status === 200, 'the retry that got through', 20_000)
  t.equal(bodies.length, 1, 'delivered once the target answered')
  t.equal(await listen.stop(), 0)
})

t.test('listen refuses what it cannot do', async (t) => {
  const live = await runCli(['listen', '--forward-to', 'http://localhost:4000/hook', '--api-key', `sk_live_${'a'.repeat(32)}`], env)
  t.equal(live.code, 2, 'a live key: sandbox only')
  t.match(stderrError(live).message, /sandbox platform key/)
  const types = await runCli(['listen', '--forward-to', 'http://localhost:4000/hook', '--events', 'customer.created,nope'], env)
  t.equal(types.code, 2)
  t.match(stderrError(types).message, /unknown \["nope"\]/)
  const target = await runCli(['listen', '--forward-to', 'ftp://localhost/hook'], env)
  t.equal(target.code, 2, 'an http(s) target only')
})
