// The webhook messages API as one plugin: reads, resend and recover, and the test event.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import type { Commands } from '../../commands/runtime/commandRuntime.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { WebhookDelivery } from '../webhookDelivery.js'
import { webhookMessageReadRoutes } from './messageReadRoutes.js'
import { webhookRedeliveryRoutes } from './redeliveryRoutes.js'
import { webhookTestEventRoute } from './testEventRoute.js'

export const webhookMessageRoutes: FastifyPluginAsyncZod<{
  db: Kysely<ReadDatabase>
  commands: Commands
  webhooks: WebhookDelivery
}> = async (app, { db, commands, webhooks }) => {
  await app.register(webhookMessageReadRoutes, { db })
  await app.register(webhookRedeliveryRoutes, { db, wakeDispatcher: webhooks.wakeDispatcher })
  await app.register(webhookTestEventRoute, { commands, waitForMessages: webhooks.waitForMessages })
}
