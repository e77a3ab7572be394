// Auditor sweep (issue 29, point 2): every operation of /api-json, sent as its fixture builds it but
// with an auditor key of the same organization. A write (any method but GET) is 403
// auditor_key_read_only in the one error body and appends nothing; a read answers as it does for the
// organization's full key (the same status), except the reads that hand out a credential (403
// auditor_key_not_allowed) and the operator routes (403 operator_key_required: the deployment's, not
// the organization's). An operation added later is covered from its first commit.
import t from 'tap'
import { auditorKeyOf } from '../audit/auditorKey.js'
import { AUDITOR_DENIED_READS } from '../../server/auth/auditorScope.js'
import { errorModelProblems } from './fixtures/errorModel.js'
import { openProofApp } from './fixtures/openApp.js'
import { isApiOperation } from './fixtures/operations.js'
import { fixtureFor, urlOf } from './fixtures/registry.js'
import { createWorld } from './fixtures/world.js'

const proof = await openProofApp(t)
const { send, events, h } = proof
const world = createWorld(send, h.org.apiKey)
const operations = proof.operations.filter(isApiOperation)

const auditor = await auditorKeyOf(h, 'proofs')

const requestIdOf = (kind: string, key: string) => `auditor-sweep-${kind}-${key}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120)
const routeOf = (path: string) => path.replace(/\{(\w+)\}/g, ':$1')

t.test('an auditor key: every write refused and nothing appended, every read answered as for a full key', async (t) => {
  t.ok(operations.length >= 60, `${operations.length} operations`)
  let reads = 0
  let writes = 0
  for (const operation of operations) {
    const valid = await fixtureFor(operation).build(world)
    const url = urlOf(operation, valid)
    const payload = valid.body === undefined ? {} : { payload: valid.body as object }
    const requestId = requestIdOf('auditor', operation.key)
    const asAuditor = await send({
      method: operation.method,
      url,
      ...payload,
      apiKey: auditor.apiKey,
      headers: { 'x-request-id': requestId },
    })
    t.equal(await events.appendedBy([requestId]), 0, `${operation.key}: nothing appended`)
    if (operation.method !== 'GET') {
      writes++
      t.equal(asAuditor.statusCode, 403, `${operation.key}: 403 (${asAuditor.body.slice(0, 160)})`)
      t.match(JSON.parse(asAuditor.body), { code: 'auditor_key_read_only' }, `${operation.key}: auditor_key_read_only`)
      t.same(errorModelProblems(asAuditor), [], `${operation.key}: the one error body`)
      continue
    }
    reads++
    if (fixtureFor(operation).operator) {
      t.equal(asAuditor.statusCode, 403, `${operation.key}: an operator route, refused`)
      t.match(JSON.parse(asAuditor.body), { code: 'operator_key_required' })
      continue
    }
    if (AUDITOR_DENIED_READS.has(routeOf(operation.path))) {
      t.equal(asAuditor.statusCode, 403, `${operation.key}: a credential, refused`)
      t.match(JSON.parse(asAuditor.body), { code: 'auditor_key_not_allowed' })
      continue
    }
    const asOwner = await send({ method: 'GET', url, apiKey: h.org.apiKey })
    t.equal(asAuditor.statusCode, asOwner.statusCode, `${operation.key}: the same status as the full key (${asAuditor.body.slice(0, 160)})`)
    t.ok(asAuditor.statusCode < 400, `${operation.key}: answered`)
  }
  t.ok(reads >= 30 && writes >= 30, `${reads} reads, ${writes} writes`)
})
