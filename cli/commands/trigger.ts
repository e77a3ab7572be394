// `trigger <event type>`: produces that public event in a sandbox through the real API operations (a
// customer onboarded, a transfer driven with the sandbox routes, ...), waits until its webhook message
// exists, and prints what it created and the message ids. `webhook.test` goes to one endpoint: --endpoint,
// else the one `listen` registered.
import { parseArgs } from 'node:util'
import { isPublicEventType } from '../../domain/publicEvents.js'
import { loadCliConfig } from '../cliRuntime.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { type ApiClient, createApiClient } from '../devtools/apiClient.js'
import { API_OPTIONS, apiClientOptions } from '../devtools/apiOptions.js'
import { listenStateFile } from '../devtools/listenState.js'
import { type Created, eventually } from '../devtools/sandboxSteps.js'
import { SUPPORTED_TRIGGERS, TRIGGER_RECIPES } from '../devtools/triggerRecipes.js'
import { CliError } from '../output.js'

/** Messages of the type listed for the resource (a transfer has several transfer.updated). */
const MAX_MESSAGES_SHOWN = 10

export const trigger: CliCommand = {
  words: ['trigger'],
  usage: 'trigger <event type> [--endpoint ep_...] [--api-key sk_sandbox_...] [--base-url http://localhost:3000]',
  summary: 'produce a sandbox webhook event through the real API operations',
  parse(argv) {
    const { values, positionals } = parseOrUsage(trigger, () =>
      parseArgs({ args: argv, options: { endpoint: { type: 'string' }, ...API_OPTIONS }, strict: true, allowPositionals: true }),
    )
    const eventType = positionals[0]
    if (positionals.length !== 1 || eventType === undefined) throw usageError(trigger, 'exactly one event type is required')
    if (!SUPPORTED_TRIGGERS.includes(eventType)) {
      const why = isPublicEventType(eventType) ? 'has no trigger recipe yet' : 'is not a public event type'
      throw usageError(trigger, `${eventType} ${why}; supported: ${SUPPORTED_TRIGGERS.join(', ')}`, { supported: SUPPORTED_TRIGGERS })
    }
    const api = apiClientOptions(trigger, values)
    return {
      offline: async ({ out }) => {
        const client = createApiClient(api)
        if (eventType === 'webhook.test') {
          const endpointId = values.endpoint ?? (await listenStateFile(loadCliConfig().DATA_DIR).endpointFor(client.baseUrl, api.apiKey))
          if (endpointId === undefined) {
            throw new CliError('no_endpoint', 'webhook.test goes to one endpoint: pass --endpoint ep_..., or run listen first')
          }
          const sent = await client.sendWebhookTestEvent(endpointId)
          await out.document({ eventType, created: {}, messages: [{ id: sent.messageId, type: 'webhook.test', endpointId }] })
          return
        }
        const recipe = TRIGGER_RECIPES[eventType as keyof typeof TRIGGER_RECIPES]
        if (!recipe) throw new Error(`no recipe for ${eventType}`)
        const created: Created = {}
        const tag = await recipe({ client, created })
        const messages = await messagesOf(client, eventType, tag)
        if (messages === undefined) {
          throw new CliError('event_not_seen', `the operations ran, but no ${eventType} message names ${tag} yet`, { created })
        }
        await out.document({ eventType, created, messages })
      },
    }
  },
}

/** The messages of `type` naming `tag`, once there is one (workflows produce some events after the call). */
async function messagesOf(client: ApiClient, type: string, tag: string) {
  return eventually(async () => {
    const page = await client.listWebhookMessages({ eventTypes: type, tag, limit: MAX_MESSAGES_SHOWN })
    return page.data.length > 0 ? page.data.map((m) => ({ id: m.id, type: m.type, timestamp: m.timestamp })) : undefined
  })
}
