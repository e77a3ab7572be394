// A dispatcher-only process for the crash and competition tests: the real runtime on the test
// database (DATABASE_URL), no subscriber, no HTTP server. Prints "ready" once it claims work.
import { inspect } from 'node:util'
import { loadConfig } from '../../server/config.js'
import { openRuntime } from '../../server/runtime.js'
import type { DispatcherTuning } from '../../webhooks/limits.js'

// Never the embedded default: this process is only ever pointed at a test's database.
if (!process.env.DATABASE_URL) {
  process.stderr.write('deliveryDispatcherProcess needs DATABASE_URL (it is started by deliveryCrash.e2e.test.ts)\n')
  process.exit(2)
}
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' })
const tuning = JSON.parse(process.env.DISPATCHER_TUNING ?? '{}') as Partial<DispatcherTuning>
const runtime = await openRuntime(
  config,
  { info: () => undefined, error: (obj, msg) => process.stderr.write(`dispatcher: ${msg ?? ''} ${inspect(obj)}\n`) },
  { poolSize: 4 },
)
await runtime.webhooks.start({ subscriber: false, dispatcher: true, tuning })
process.stdout.write('ready\n')

const stop = () => {
  runtime.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
