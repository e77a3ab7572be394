import { openBenchPostgres } from './database.js'
import { startServerChild } from './child.js'
import { runHttpBench } from './httpBench.js'
import { measureCpu } from './cpu.js'
const db = await openBenchPostgres()
const body = JSON.stringify({ url: 'https://example.com/hook', description: 'bench' })
try {
  const api = await startServerChild('./serveApp.ts', { DATABASE_URL: await db.createDatabase('api'), LOG_LEVEL: 'silent' })
  const t = {
    url: `${api.baseUrl}/v1/webhooks/endpoints`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${api.ready.apiKey}` },
    body,
  }
  await runHttpBench(t, { connections: 50, durationSeconds: 2 })
  const m = measureCpu(api.pid, db.postmasterPid)!
  const r = await runHttpBench(t, { connections: 50, durationSeconds: 6 })
  console.log(JSON.stringify(m()))
  console.log('cmd', r.requestsPerSecond.toFixed(0), r.latency, r.non2xx)
  await api.stop()
} finally {
  await db.close()
}
