// principalOf: a route reached without an authenticated principal answers 401 in the one error
// body, instead of failing on an undefined principal (a 500).
import Fastify from 'fastify'
import t from 'tap'
import { principalOf } from '../../http/principal.js'
import { registerErrorHandling } from '../../server/errors/errorHandler.js'

t.test('a route without a principal answers 401 in the error body; with one, it reads it', async (t) => {
  const app = Fastify()
  registerErrorHandling(app)
  app.get('/who', async (request) => ({ organizationId: principalOf(request).organizationId }))
  app.get(
    '/who-signed-in',
    {
      onRequest: async (request) => {
        request.principal = { organizationId: 'org_1', keyId: 'key_1', environment: 'sandbox' }
      },
    },
    async (request) => ({ organizationId: principalOf(request).organizationId }),
  )
  t.teardown(() => app.close())

  const missing = await app.inject({ method: 'GET', url: '/who' })
  t.equal(missing.statusCode, 401)
  t.match(missing.json(), { error: 'Unauthorized', statusCode: 401, message: /Missing API key/, requestId: String })
  const present = await app.inject({ method: 'GET', url: '/who-signed-in' })
  t.same(present.json(), { organizationId: 'org_1' })
})
