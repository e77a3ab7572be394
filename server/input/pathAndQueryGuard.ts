// Path parameters and query strings pass the same checks as bodies (jsonBodyGuard.ts: storable
// text, no reserved names) before validation: the router and the query parser decode %00 to
// U+0000, which PostgreSQL refuses (a 500) and which must never reach a log line raw.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError } from '../../http/errorBody.js'
import type { InputProblem } from './jsonBodyGuard.js'
import { FORBIDDEN_KEYS } from './limits.js'
import { unstorableTextReason } from './storableText.js'

function problemIn(root: string, values: unknown): InputProblem | undefined {
  if (typeof values !== 'object' || values === null) return undefined
  for (const [key, value] of Object.entries(values)) {
    const field = `${root}.${key}`
    const keyReason = unstorableTextReason(key)
    if (keyReason) return { field, message: `name ${keyReason}` }
    if (FORBIDDEN_KEYS.has(key)) return { field, message: `"${key}" is not allowed as a parameter name` }
    // A repeated query parameter is an array of strings; nothing nests deeper.
    for (const item of Array.isArray(value) ? value : [value]) {
      const reason = typeof item === 'string' ? unstorableTextReason(item) : undefined
      if (reason) return { field, message: reason }
    }
  }
  return undefined
}

export function findPathOrQueryProblem(request: FastifyRequest): InputProblem | undefined {
  return problemIn('params', request.params) ?? problemIn('query', request.query)
}

export const pathAndQueryGuard = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    const problem = findPathOrQueryProblem(request)
    if (problem) {
      const where = problem.field.startsWith('params.') ? 'path' : 'query'
      throw new ApiError(400, `Invalid request ${where}: ${problem.field} ${problem.message}`, 'invalid_request', [problem])
    }
  })
})
