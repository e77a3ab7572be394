// The console's built files (console/dist, `npm run build:console`) at /console/: a file that exists
// is sent as is; any other path without a file extension is a page of the single-page app and gets
// index.html (its router reads the URL); a missing asset is a 404. Until the console is built,
// /console/ answers a 503 page that says how to build it. Every answer carries consoleHeaders.ts.
import { stat } from 'node:fs/promises'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Environment } from '../../domain/shared/environment.js'
import { ApiError } from '../../http/errorBody.js'
import { setConsoleHeaders } from './consoleHeaders.js'

export const CONSOLE_PREFIX = '/console/'

/** The session routes' segment (sessionRoutes.ts): no page lives under it, so a path there is a 404, not the app. */
const API_SEGMENT = 'session'

/** Vite puts content-hashed files under assets/: they never change, so browsers keep them a year. */
const HASHED_ASSETS_DIR = 'assets'

const NOT_BUILT_PAGE = [
  '<!doctype html>',
  '<html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head><body>',
  '<h1>The console is not built yet</h1>',
  '<p>Build it with <code>npm run build:console</code> (it writes console/dist, or the directory CONSOLE_DIST_DIR names), ',
  'then reload this page.</p>',
  '<p>The API works meanwhile: its reference is at <a href="/api">/api</a>.</p>',
  '</body></html>',
].join('\n')

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile()
  } catch {
    return false
  }
}

/** Longest path under /console/ looked at: a built file's name is far shorter. */
const MAX_CONSOLE_PATH_LENGTH = 1_000

/** The file under `root` that a URL path names, when it is one; never a path outside `root`, never a dotfile. */
async function fileUnder(root: string, urlPath: string): Promise<string | undefined> {
  if (urlPath.includes('\0') || urlPath.split('/').some((segment) => segment.startsWith('.'))) return undefined
  const resolved = path.resolve(root, `.${path.posix.sep}${urlPath}`)
  if (!resolved.startsWith(root + path.sep)) return undefined
  return (await isFile(resolved)) ? path.relative(root, resolved) : undefined
}

function sendIndex(reply: FastifyReply) {
  reply.header('cache-control', 'no-cache')
  return reply.sendFile('index.html', { cacheControl: false })
}

export const consoleStatic: FastifyPluginAsyncZod<{ distDir: string; environment: Environment }> = async (app, options) => {
  const root = path.resolve(options.distDir)
  // serve: false: only reply.sendFile; the routes below decide what a path means. The directory may appear after start.
  await app.register(fastifyStatic, { root, serve: false, suppressWarning: true })
  app.addHook('onRequest', async (_request, reply) => setConsoleHeaders(reply, options.environment))

  app.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect(CONSOLE_PREFIX, 302))

  const params = z.object({ '*': z.string().max(MAX_CONSOLE_PATH_LENGTH) })
  app.get(`${CONSOLE_PREFIX}*`, { schema: { hide: true, params } }, async (request, reply) => {
    const wildcard = request.params['*']
    if (wildcard.split('/')[0] === API_SEGMENT) return reply.callNotFound()
    if (!(await isFile(path.join(root, 'index.html')))) {
      return reply.code(503).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_BUILT_PAGE)
    }
    const file = wildcard === '' ? undefined : await fileUnder(root, wildcard)
    if (file !== undefined) {
      if (file.split(path.sep)[0] === HASHED_ASSETS_DIR) return reply.sendFile(file, { maxAge: '365d', immutable: true })
      reply.header('cache-control', 'no-cache')
      return reply.sendFile(file, { cacheControl: false })
    }
    if (path.posix.extname(wildcard) !== '') throw new ApiError(404, `No console file ${CONSOLE_PREFIX}${wildcard}`)
    return sendIndex(reply)
  })
}
