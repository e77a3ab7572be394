// Logs are JSON with request ids, and never carry an API key or a signing secret.
import t from 'tap'
import { Writable } from 'node:stream'
import pino from 'pino'
import { REDACTED_PATHS } from '../../server/logger.js'
import { startTestApp } from '../harness/testApp.js'

const lines: string[] = []
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean))
    done()
  },
})
const logger = pino({ level: 'debug', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink)
const h = await startTestApp(t, { LOG_LEVEL: 'debug' }, { logger })

t.test('request logs: JSON with request ids, keys and secrets redacted', async (t) => {
  const created = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'https://example.com/log' } })
  const { id } = created.json()
  const secret = (await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}/secret` })).json().secret as string
  await h.request({ method: 'GET', url: '/v1/webhooks/endpoints', apiKey: null, headers: { 'x-api-key': h.org.apiKey } })
  logger.info({ headers: { authorization: `Bearer ${h.org.apiKey}` }, endpoint: { secret } }, 'explicitly logged object')
  t.ok(lines.length > 3, `captured ${lines.length} log lines`)
  for (const line of lines) JSON.parse(line)
  t.ok(
    lines.some((l) => JSON.parse(l).reqId === created.headers['x-request-id']),
    'request id in the logs',
  )
  const all = lines.join('\n')
  t.notOk(all.includes(h.org.apiKey), 'API key never logged')
  t.notOk(all.includes(secret), 'signing secret never logged')
  t.ok(all.includes('[redacted]'), 'redaction applied')
})
