// The one body parser: JSON in UTF-8 only. It replaces fastify's JSON and text parsers, so every
// body, on every route, passes the same checks before validation sees it:
// - a charset other than UTF-8 is 415 (the bytes would be read as the wrong text);
// - bytes that are not valid UTF-8 are 400 (not silently turned into U+FFFD);
// - text JSON.parse refuses is 400 invalid_json;
// - the guard (jsonBodyGuard.ts): depth, reserved and duplicate keys, unstorable strings, control
//   characters (tab and line feed only in the fields the route's body schema declares multi-line),
//   400 naming the field.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { type FieldPattern, multiLinePaths } from '../../domain/shared/text/index.js'
import { ApiError } from '../../http/errorBody.js'
import { findJsonBodyProblem } from './jsonBodyGuard.js'
import { INPUT_LIMITS } from './limits.js'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The charset parameter of a Content-Type, lowercased, or undefined when there is none. */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '')
  return match ? (match[1] ?? match[2] ?? '').toLowerCase() : undefined
}

/** The fields of the matched route's body that may span lines (none for a route without a zod body schema). */
function multiLineFieldsOf(request: FastifyRequest): readonly FieldPattern[] {
  const body: unknown = request.routeOptions.schema?.body
  return body instanceof z.ZodType ? multiLinePaths(body) : []
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    const charset = charsetOf(request.headers['content-type'])
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      throw new ApiError(415, 'Unsupported charset: send Content-Type: application/json (UTF-8)', 'unsupported_media_type')
    }
    if (body.length === 0) throw new ApiError(400, 'Malformed JSON body: the body is empty', 'invalid_json')
    let text: string
    try {
      text = utf8.decode(body)
    } catch {
      throw new ApiError(400, 'Malformed JSON body: the body is not valid UTF-8', 'invalid_json')
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      throw new ApiError(400, 'Malformed JSON body', 'invalid_json')
    }
    const problem = findJsonBodyProblem(text, 'body', INPUT_LIMITS.maxJsonDepth, multiLineFieldsOf(request))
    if (problem) throw new ApiError(400, `Invalid request body: ${problem.field} ${problem.message}`, 'invalid_request', [problem])
    done(null, value)
  })
}
