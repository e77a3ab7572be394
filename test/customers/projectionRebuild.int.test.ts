// The customers and documents projections rebuild from the events into identical read models, and
// a rebuild never touches document contents (written by the upload command, not by a projector).
import t from 'tap'
import { customersProjector } from '../../projections/customers.js'
import { documentsProjector } from '../../projections/documents.js'
import { rebuildProjection } from '../../projections/runtime/rebuildProjection.js'
import { startTestApp } from '../harness/testApp.js'
import { completeIndividualBody, createBusiness, createIndividual, saveVerification } from './fixtures.js'

const h = await startTestApp(t)

t.test('rebuilt customers, sessions and documents equal the live ones', async (t) => {
  const c = await createIndividual(h)
  await h.request({ method: 'POST', url: `/v1/customers/${c.id}/verification_sessions`, payload: {} })
  await saveVerification(h, c.id, await completeIndividualBody(h, c.id), true)
  const b = await createBusiness(h)
  await h.request({ method: 'POST', url: `/v1/customers/${b.id}/associated_persons`, payload: { firstName: 'P', hasControl: true } })
  const gone = await createIndividual(h)
  await h.request({ method: 'DELETE', url: `/v1/customers/${gone.id}` })
  const snapshot = async () => ({
    customers: await h.runtime.db.selectFrom('customers').selectAll().orderBy('id').execute(),
    sessions: await h.runtime.db.selectFrom('verification_sessions').selectAll().orderBy('id').execute(),
    documents: await h.runtime.db.selectFrom('documents').selectAll().orderBy('id').execute(),
    contents: await h.runtime.db.selectFrom('document_contents').select(['document_id', 'sha256']).orderBy('document_id').execute(),
  })
  const before = await snapshot()
  t.equal(before.customers.length, 2, 'the deleted customer is not in the read model')
  await rebuildProjection(h.runtime.store, h.runtime.db, customersProjector, h.runtime)
  await rebuildProjection(h.runtime.store, h.runtime.db, documentsProjector, h.runtime)
  t.same(await snapshot(), before)
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${c.id}` })).json().status, 'UNDER_REVIEW')
})
