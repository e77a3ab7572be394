// The fuzz's error-body check: the one body with X-Request-Id equal to requestId, except that an
// idempotent replay keeps the original request's id in its body (found by the soak, seed 710926265).
import t from 'tap'
import { errorModelProblems } from './fixtures/errorModel.js'

const body = (requestId: string) =>
  JSON.stringify({ error: 'NotFoundError', code: 'resource_not_found', message: 'not found', statusCode: 404, requestId })

t.test('the one error body, X-Request-Id equal to requestId', async (t) => {
  t.same(errorModelProblems({ statusCode: 404, headers: { 'x-request-id': 'req_a' }, body: body('req_a') }), [])
  t.same(errorModelProblems({ statusCode: 404, headers: { 'x-request-id': 'req_b' }, body: body('req_a') }), [
    'X-Request-Id req_b is not the requestId req_a',
  ])
  t.same(errorModelProblems({ statusCode: 400, headers: {}, body: '{"error":"Bad Request","message":"x","statusCode":400}' }), [
    'no requestId',
  ])
  t.same(errorModelProblems({ statusCode: 404, headers: { 'x-request-id': 'req_a' }, body: 'Not Found' }), [
    'body is not JSON: "Not Found"',
  ])
  t.same(errorModelProblems({ statusCode: 409, headers: { 'x-request-id': 'req_a' }, body: body('req_a') }), [
    'statusCode 404 is not the status 409',
  ])
})

t.test('an idempotent replay answers with the original body, its requestId included', async (t) => {
  t.same(
    errorModelProblems({ statusCode: 404, headers: { 'x-request-id': 'req_b', 'idempotent-replayed': 'true' }, body: body('req_a') }),
    [],
  )
})
