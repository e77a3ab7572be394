// Durability with real processes: a dispatcher killed with SIGKILL mid-delivery loses nothing
// (another process sends the same message id once the lease runs out, and the lost attempt is
// recorded as interrupted), and two dispatcher processes competing for one queue never send an
// attempt twice.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { nodeArgsFor } from '../harness/prebuilt.js'
import { createEndpoint, getMessage, sendTestEvent, settled } from './deliveryHelpers.js'
import { eventually, startReceiver, verifyDelivery } from './deliveryReceiver.js'

const h = await startTestApp(t, { WEBHOOK_RETRY_SCHEDULE_MS: '0,50,50' }, { webhooks: { subscriber: true, dispatcher: false } })
const receiver = await startReceiver()
t.teardown(() => receiver.close())

const TUNING = { requestTimeoutMs: 1_000, leaseMs: 1_500, pollIntervalMs: 20, stopGraceMs: 200 }
const children = new Set<ChildProcess>()
t.teardown(async () => {
  for (const child of children) {
    child.kill('SIGKILL')
    await once(child, 'exit').catch(() => undefined)
  }
})

async function startDispatcher(): Promise<ChildProcess> {
  // node itself (prebuilt), not the tsx CLI: the CLI runs the script in a grandchild that a SIGKILL
  // of the CLI would leave running, and the kill must land on the dispatcher itself.
  const child = spawn(process.execPath, nodeArgsFor('test/webhooks/deliveryDispatcherProcess.ts'), {
    env: {
      ...process.env,
      DATABASE_URL: h.runtime.databaseUrl,
      WEBHOOK_RETRY_SCHEDULE_MS: '0,50,50',
      DISPATCHER_TUNING: JSON.stringify(TUNING),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  const lines = createInterface({ input: child.stdout! })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('dispatcher process did not start')), 20_000)
    lines.on('line', (line) => {
      if (line === 'ready') {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => reject(new Error(`dispatcher process exited early (${String(code)})`)))
  })
  return child
}

async function stopDispatcher(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const exited = once(child, 'exit')
  child.kill(signal)
  await exited
}

t.test('a dispatcher killed with SIGKILL mid-delivery: the message arrives later with the same webhook-id', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/crash') })
  // The first request hangs, so the kill lands while it is in flight; later ones succeed.
  receiver.on('/crash', (_req, nth) => (nth === 0 ? { status: 200, hang: true } : { status: 200, body: 'thanks' }))
  const first = await startDispatcher()
  const messageId = await sendTestEvent(h, ep.id)
  await receiver.waitFor(() => receiver.forPath('/crash').length === 1, 10_000, 'first delivery in flight')
  await stopDispatcher(first, 'SIGKILL')

  const leased = await h.runtime.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('message_id', '=', messageId)
    .executeTakeFirstOrThrow()
  t.equal(leased.status, 'PENDING', 'still queued after the kill')
  t.ok(leased.lease_token, 'its lease is still held by the dead process')
  t.equal((await getMessage(h, messageId)).attempts.length, 0, 'no outcome was recorded')

  const second = await startDispatcher()
  await receiver.waitFor(() => receiver.forPath('/crash').length === 2, 10_000, 'redelivery after restart')
  const [lost, again] = receiver.forPath('/crash')
  t.equal(again!.headers['webhook-id'], messageId, 'same webhook-id')
  t.equal(again!.body, lost!.body, 'same payload')
  t.ok(verifyDelivery(ep.secret, again!))
  t.ok(again!.receivedAt - lost!.receivedAt >= TUNING.leaseMs - 200, 'not before the lease ran out')

  const message = await settled(h, messageId)
  t.same(
    message.deliveries.map((d) => [d.status, d.attemptCount]),
    [['SUCCEEDED', 2]],
  )
  t.match(message.attempts, [
    { responseStatusCode: 0, error: /^interrupted/, durationMs: null },
    { responseStatusCode: 200, responseBody: 'thanks' },
  ])
  await stopDispatcher(second, 'SIGTERM')
})

t.test('two dispatcher processes on one queue: every delivery sent exactly once', async (t) => {
  const endpoints = await Promise.all([
    createEndpoint(h, { url: receiver.url('/race/a') }),
    createEndpoint(h, { url: receiver.url('/race/b') }),
  ])
  receiver.on('/race/a', () => ({ status: 200, delayMs: Math.floor(Math.random() * 20) }))
  receiver.on('/race/b', () => ({ status: 200, delayMs: Math.floor(Math.random() * 20) }))
  const dispatchers = await Promise.all([startDispatcher(), startDispatcher()])
  const sent: string[] = []
  for (let i = 0; i < 20; i++) sent.push(...(await Promise.all(endpoints.map((ep) => sendTestEvent(h, ep.id)))))
  await receiver.waitFor(
    () => receiver.forPath('/race/a').length + receiver.forPath('/race/b').length >= sent.length,
    15_000,
    'all deliveries',
  )
  // Let any duplicate arrive before counting.
  await new Promise((resolve) => setTimeout(resolve, 300))
  const received = [...receiver.forPath('/race/a'), ...receiver.forPath('/race/b')].map((r) => r.headers['webhook-id'])
  t.equal(received.length, sent.length, 'one request per delivery')
  t.same([...new Set(received)].sort(), [...sent].sort(), 'every message, none twice')
  for (const id of sent) {
    const m = await eventually(
      async () => {
        const got = await getMessage(h, id)
        return got.deliveries[0]?.status === 'SUCCEEDED' ? got : undefined
      },
      5_000,
      'recorded',
    )
    t.equal(m.attempts.length, 1, `${id}: one attempt`)
  }
  await Promise.all(dispatchers.map((d) => stopDispatcher(d, 'SIGTERM')))
})
