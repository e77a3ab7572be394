// The console's server side in one place (issue 30, point 4): cookie parsing for every route, the
// session routes (/console/session), the built files at /console/, and the session authenticator the
// /v1 scope accepts a session cookie with (server/app.ts hands it to server/auth/authenticate.ts).
import fastifyCookie from '@fastify/cookie'
import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { Environment } from '../../domain/shared/environment.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { consoleStatic } from './consoleStatic.js'
import { type SessionAuthenticator, sessionAuthenticator } from './sessionAuth.js'
import { consoleSessionRoutes } from './sessionRoutes.js'
import { consoleSessionStore } from './sessionStore.js'

export type ConsoleDeps = {
  db: Kysely<ReadDatabase>
  environment: Environment
  clock: () => Date
  distDir: string
  signInPerIp: number
}

/** Registers the console on the root app; answers what the /v1 scope authenticates session cookies with. */
export async function registerConsole(app: FastifyInstance, deps: ConsoleDeps): Promise<SessionAuthenticator> {
  // On the root (the plugin is fastify-plugin wrapped): the /v1 scope reads request.cookies too.
  await app.register(fastifyCookie)
  const store = consoleSessionStore(deps)
  await app.register(consoleSessionRoutes, { store, environment: deps.environment, signInPerIp: deps.signInPerIp })
  await app.register(consoleStatic, { distDir: deps.distDir, environment: deps.environment })
  return sessionAuthenticator(store, deps.environment)
}
