// The webhook messages slice: reads, resend and recover, and the test event.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { webhookMessageRoutes } from '../../webhooks/api/webhookMessageRoutes.js'
import type { AreaContext } from './areaContext.js'

export const webhookMessagesArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  await app.register(webhookMessageRoutes, c)
}
