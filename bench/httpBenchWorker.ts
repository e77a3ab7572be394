// The worker thread of httpBench.ts: one autocannon run, its result posted back, then the thread ends.
import { parentPort, workerData } from 'node:worker_threads'
import { runAutocannon } from './autocannonRun.js'
import type { HttpBenchRequest } from './httpBench.js'

const { target, options } = workerData as HttpBenchRequest
parentPort!.postMessage(await runAutocannon(target, options))
