import t from 'tap'
import { startTestApp } from '../test/harness/testApp.js'
const h = await startTestApp(t)
const doc = (await h.app.inject({ method: 'GET', url: '/api-json' })).json()
for (const path of ['/v1/accounts', '/v1/customers/{customerId}/accounts', '/v1/accounts/{id}', '/v1/accounts/{id}/virtual-accounts']) {
  const op = doc.paths[path].get
  for (const p of op.parameters) console.log(path, p.in, p.name, JSON.stringify(p.schema).slice(0, 150), '|', p.description ?? p.schema?.description ?? 'NO DESCRIPTION')
}
const item = doc.paths['/v1/accounts'].get.responses['200'].content['application/json'].schema
console.log(JSON.stringify(item).slice(0, 600))
