// One load run against a listening server (autocannonRun.ts), in a worker thread of its own: the
// latencies are taken in a fresh heap, so the orchestrator's own garbage collection (it holds the
// seeds of a million rows and every earlier phase's results) never stretches a response's measured
// time. The worker is started per run and ends with it.
import { Worker } from 'node:worker_threads'
import type { HttpBenchResult, HttpTarget } from './autocannonRun.js'

export { HTTP_BENCH_LIMITS, type HttpBenchResult, type HttpTarget } from './autocannonRun.js'

export type HttpBenchRequest = { target: HttpTarget; options: { connections: number; durationSeconds: number } }

// A worker starts without the orchestrator's TypeScript loader: it registers tsx's, then loads the worker module.
const WORKER_BOOTSTRAP =
  `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
  `.then(({ register }) => { register(); return import(${JSON.stringify(new URL('./httpBenchWorker.ts', import.meta.url).href)}) })`

export function runHttpBench(target: HttpTarget, options: { connections: number; durationSeconds: number }): Promise<HttpBenchResult> {
  const request: HttpBenchRequest = { target, options }
  const worker = new Worker(WORKER_BOOTSTRAP, { eval: true, workerData: request })
  return new Promise((resolve, reject) => {
    let result: HttpBenchResult | undefined
    worker.once('message', (message: HttpBenchResult) => (result = message))
    worker.once('error', reject)
    worker.once('exit', (code) => (result ? resolve(result) : reject(new Error(`the load worker exited with code ${code} and no result`))))
  })
}
