// `listen --forward-to <url>`: webhooks on a laptop, like the Stripe CLI's. Registers (or takes up again) a
// sandbox endpoint pointing at a receiver on 127.0.0.1, prints its signing secret (the same on every run),
// forwards each signed delivery to <url> unchanged and prints one line per delivery, until Ctrl-C.
import { parseArgs } from 'node:util'
import { PUBLIC_EVENT_TYPES, isPublicEventType } from '../../domain/publicEvents.js'
import { loadCliConfig } from '../cliRuntime.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { createApiClient } from '../devtools/apiClient.js'
import { API_OPTIONS, apiClientOptions, isHttpUrl } from '../devtools/apiOptions.js'
import { type ForwardReport, startForwarder } from '../devtools/forwarder.js'
import { setEndpointAside, takeUpEndpoint } from '../devtools/listenEndpoint.js'
import { listenStateFile } from '../devtools/listenState.js'
import type { Output } from '../output.js'

/** Longest the stop spends setting the endpoint aside before it exits anyway. */
const STOP_TIMEOUT_MS = 10_000

export const listen: CliCommand = {
  words: ['listen'],
  usage: 'listen --forward-to <url> [--events type,type] [--json] [--api-key sk_sandbox_...] [--base-url http://localhost:3000]',
  summary: 'forward sandbox webhook deliveries to a local URL, signed, until Ctrl-C',
  parse(argv) {
    const { values } = parseOrUsage(listen, () =>
      parseArgs({
        args: argv,
        options: { 'forward-to': { type: 'string' }, events: { type: 'string' }, json: { type: 'boolean' }, ...API_OPTIONS },
        strict: true,
      }),
    )
    const forwardTo = values['forward-to']
    if (!forwardTo || !isHttpUrl(forwardTo)) throw usageError(listen, '--forward-to must be an http or https URL')
    const filterTypes = parseEventTypes(values.events)
    const api = apiClientOptions(listen, values)
    const json = values.json === true
    return {
      offline: async ({ out }) => {
        const client = createApiClient(api)
        const state = listenStateFile(loadCliConfig().DATA_DIR)
        let secret = ''
        let endpointId = ''
        let reused = false
        // Deliveries wait (503, retried) until the ready line is out: a retry may come as soon as the endpoint is re-enabled.
        let accepting = false
        let printing = Promise.resolve()
        const forwarder = await startForwarder({
          forwardTo,
          secret: () => (accepting ? secret : undefined),
          refreshSecret: async () => (secret = (await client.getWebhookEndpointSecret(endpointId)).secret),
          onDelivery: (report) => {
            printing = printing.then(() => printDelivery(out, report, json))
          },
        })
        try {
          const taken = await takeUpEndpoint(client, state, api.apiKey, { url: forwarder.url, filterTypes })
          endpointId = taken.id
          reused = taken.reused
          secret = taken.secret
        } catch (error) {
          await forwarder.close()
          throw error
        }
        const ready = { ready: true, endpointId, reused, secret, url: forwarder.url, forwardTo, filterTypes }
        if (json) await out.line(ready)
        else {
          await out.text(`Ready. Your webhook signing secret is ${secret} (endpoint ${endpointId}, ${describeTypes(filterTypes)})`)
          await out.text(`Forwarding deliveries to ${forwardTo}; Ctrl-C stops.`)
        }
        accepting = true
        const signal = await stopSignal()
        await forwarder.close()
        await printing
        const outcome = await withTimeout(setEndpointAside(client, endpointId, forwarder.url), STOP_TIMEOUT_MS).catch(
          (error: unknown) => `left enabled (${error instanceof Error ? error.message : String(error)})`,
        )
        await out.progress(`${signal}: stopped; endpoint ${endpointId} ${outcome}`)
      },
    }
  },
}

function parseEventTypes(value: string | undefined): string[] {
  if (value === undefined) return []
  const types = value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
  const unknown = types.filter((t) => !isPublicEventType(t))
  if (unknown.length > 0 || types.length === 0) {
    throw usageError(listen, `--events takes public event types: unknown ${JSON.stringify(unknown)}`, { supported: PUBLIC_EVENT_TYPES })
  }
  return [...new Set(types)]
}

const describeTypes = (types: string[]) => (types.length === 0 ? 'every event type' : types.join(', '))

async function printDelivery(out: Output, r: ForwardReport, json: boolean): Promise<void> {
  if (json) {
    await out.line({
      at: r.at.toISOString(),
      type: r.type ?? null,
      messageId: r.messageId ?? null,
      status: r.targetStatus,
      answered: r.answeredStatus,
      durationMs: r.durationMs,
      ...(r.error !== undefined ? { error: r.error } : {}),
    })
    return
  }
  const answered = r.answeredStatus === r.targetStatus ? '' : ` (answered ${r.answeredStatus})`
  const error = r.error !== undefined ? ` ${r.error}` : ''
  const what = `${r.type ?? '(unknown type)'}  ${r.messageId ?? '(no id)'}`
  await out.text(`${r.at.toISOString()}  ${what}  -> ${r.targetStatus}${answered} ${r.durationMs} ms${error}`)
}

/** Resolves with the signal's name at the first SIGINT or SIGTERM: the normal end of a listen. */
function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve(signal)
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref()),
  ])
}
