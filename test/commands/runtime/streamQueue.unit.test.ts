// The per-stream queue: one command at a time per stream, in arrival order, streams independent,
// a failure does not block the next, nothing left behind, and a bounded wait.
import t from 'tap'
import { STREAM_QUEUE_LIMITS, StreamQueueFullError, createStreamQueue } from '../../../commands/runtime/streamQueue.js'

const tick = () => new Promise((resolve) => setImmediate(resolve))

t.test('one at a time per stream, in arrival order; other streams run alongside', async (t) => {
  const queue = createStreamQueue()
  const log: string[] = []
  let running = 0
  let most = 0
  const job = (stream: string, name: string) =>
    queue.run(stream, async () => {
      running++
      most = Math.max(most, running)
      log.push(`${name} start`)
      await tick()
      log.push(`${name} end`)
      running--
      return name
    })
  const results = await Promise.all([job('a', 'a1'), job('a', 'a2'), job('a', 'a3')])
  t.same(results, ['a1', 'a2', 'a3'])
  t.same(log, ['a1 start', 'a1 end', 'a2 start', 'a2 end', 'a3 start', 'a3 end'])
  t.equal(most, 1, 'never two at once on one stream')
  most = 0
  await Promise.all([job('a', 'x'), job('b', 'y')])
  t.equal(most, 2, 'two streams run together')
  await tick()
  t.equal(queue.busyStreams(), 0, 'nothing left behind')
})

t.test('a failing command does not block the next one', async (t) => {
  const queue = createStreamQueue()
  const failed = queue.run('a', async () => {
    throw new Error('boom')
  })
  const next = queue.run('a', async () => 'next')
  await t.rejects(failed, /boom/)
  t.equal(await next, 'next')
  await tick() // the queue forgets the stream once its tail settles
  t.equal(queue.busyStreams(), 0)
})

t.test('past the bound a command is refused, not queued', async (t) => {
  const queue = createStreamQueue()
  let release: () => void = () => undefined
  const gate = new Promise<void>((resolve) => (release = resolve))
  const waiting = Array.from({ length: STREAM_QUEUE_LIMITS.maxWaitingPerStream }, () => queue.run('hot', () => gate))
  await t.rejects(
    queue.run('hot', async () => 'late'),
    StreamQueueFullError,
  )
  release()
  await Promise.all(waiting)
  t.equal(await queue.run('hot', async () => 'after'), 'after', 'room again once they ran')
})
