// Foreign ids (issue 24, D6): every id a request names is checked for existence and tenant. For every
// operation of /api-json with a body or query field that names a resource (fixtures/idFields.ts), each
// valid request of it (its fixture, and the variants that name the fields the fixture leaves out,
// fixtures/idVariants.ts) is sent with that field holding (a) the same kind of id of a second
// organization and (b) a well-formed made-up id: both are a 4xx in the one error body, the same answer
// (so existence in another organization is not revealed), and no event carries the request's id. The
// request as built is then sent unchanged and must succeed, so each refusal is about the id alone.
import t from 'tap'
import { ID_PREFIXES, newId } from '../../domain/shared/ids.js'
import { type ApiReply, jsonOf } from './fixtures/client.js'
import { errorModelProblems } from './fixtures/errorModel.js'
import { type IdField, type Place, fieldName, idFieldsOf, placeOfPath, placesOf, withValueAt } from './fixtures/idFields.js'
import { ID_VARIANTS, UNNAMEABLE_ID_FIELDS } from './fixtures/idVariants.js'
import { openProofApp } from './fixtures/openApp.js'
import { type Operation, isApiOperation } from './fixtures/operations.js'
import { type ValidRequest, fixtureFor, urlOf } from './fixtures/registry.js'
import { type World, createWorld } from './fixtures/world.js'

export const FOREIGN_IDS_LIMITS = {
  /** Requests one operation may take (its variants' builds excluded): a bound on the proof's time. */
  maxRequestsPerOperation: 60,
  /** Operations with id fields expected at least (a drop means the discovery broke). */
  minOperations: 20,
} as const

const proof = await openProofApp(t)
const { send, events } = proof
const orgB = await proof.h.newOrganization('Organization B')
const A = createWorld(send, proof.h.org.apiKey)
const B = createWorld(send, orgB.apiKey)

/** Organization B's resource of each id prefix: what a foreign id of that kind is. */
const FOREIGN_BY_PREFIX: Record<string, (w: World) => Promise<string>> = {
  cus: (w) => w.customer(),
  acc: (w) => w.senderBalance(),
  eba: (w) => w.senderBank(),
  inw: (w) => w.creditLine(),
  vba: (w) => w.fixedRoute(),
  doc: (w) => w.document(),
  asp: async (w) => (await w.associatedBusiness()).entityId,
  cp: async (w) => (await w.counterparty()).counterpartyId,
  ep: (w) => w.endpoint(),
  fxq: (w) => w.quote(),
  tdraft: (w) => w.freshApprovedDraft(),
  inv: (w) => w.invoice(),
  ewa: (w) => w.externalWallet(),
  tos: async (w) => {
    const reply = await w.send({ method: 'POST', url: '/v1/tos/generate', apiKey: w.apiKey, payload: { customerId: await w.customer() } })
    return jsonOf<{ id: string }>(reply, 'tos/generate').id
  },
}

/** A well-formed id of `prefix` that names nothing. */
function madeUpId(prefix: string): string {
  const known = Object.values(ID_PREFIXES).find((p) => p === prefix)
  return known ? newId(known) : `${prefix}_${'0'.repeat(10)}${'z'.repeat(16)}`
}

/** A request with `id` at `place` of its body or query. */
function replaced(valid: ValidRequest, field: IdField, place: Place, id: string): ValidRequest {
  if (field.in === 'body') return { ...valid, body: withValueAt(valid.body, place, id) }
  return { ...valid, query: { ...(valid.query ?? {}), [String(place[0])]: id } }
}

const sendAsA = (operation: Operation, request: ValidRequest) =>
  send({
    method: operation.method,
    url: urlOf(operation, request),
    ...(request.body === undefined ? {} : { payload: request.body as object }),
    apiKey: A.apiKey,
  })

/**
 * The answer with every id taken out (the one sent, and any made for the request, as a new entity's
 * in a message): what must be the same whichever organization's id, or none, the request named.
 */
function answerOf(reply: ApiReply) {
  const text = reply.body.replace(/\b[a-z]{2,6}_[0-9a-z]{26}\b/g, '<id>')
  const { requestId: _r, ...rest } = JSON.parse(text) as Record<string, unknown>
  return { statusCode: reply.statusCode, ...rest }
}

const requestIdOf = (reply: ApiReply) => String(reply.headers['x-request-id'] ?? '')

const operations = proof.operations.filter((o) => isApiOperation(o) && idFieldsOf(o).length > 0)

t.test('the operations whose requests name ids', async (t) => {
  t.ok(operations.length >= FOREIGN_IDS_LIMITS.minOperations, `${operations.length} operations name ids in their body or query`)
  t.comment(
    operations
      .map(
        (o) =>
          `${o.key}: ${idFieldsOf(o)
            .map((f) => `${f.in}.${f.path}`)
            .join(', ')}`,
      )
      .join('\n'),
  )
})

t.test("each id field with another organization's id and with a made-up one: the same 4xx, nothing recorded", async (t) => {
  // B has one resource of every kind, so a refusal is about the tenant, not an empty organization.
  for (const make of Object.values(FOREIGN_BY_PREFIX)) await make(B)
  for (const operation of operations) {
    const fields = idFieldsOf(operation)
    const builders = [fixtureFor(operation).build, ...(ID_VARIANTS[operation.key] ?? [])]
    const named = new Set<string>()
    let requests = 0
    const refuse = async (what: string, request: ValidRequest, ids: string[]): Promise<ApiReply> => {
      requests++
      const reply = await sendAsA(operation, request)
      const refused = reply.statusCode >= 400 && reply.statusCode < 500
      t.ok(refused, `${what}: a 4xx (${reply.statusCode} ${reply.body.slice(0, 200)})`)
      if (reply.statusCode >= 400) t.same(errorModelProblems(reply), [], `${what}: the one error body`)
      t.equal(await events.appendedBy([requestIdOf(reply)]), 0, `${what}: no event recorded`)
      return { ...reply, body: refused ? reply.body : JSON.stringify({ unexpected: ids }) }
    }
    let last: ValidRequest | undefined
    for (const build of builders) {
      const valid = await build(A)
      last = valid
      for (const field of fields) {
        for (const { place, id } of placesOf(field.in === 'body' ? valid.body : valid.query, field.path)) {
          named.add(field.path)
          const kind = id.split('_')[0] ?? ''
          const foreignOf = FOREIGN_BY_PREFIX[kind]
          if (!foreignOf) {
            t.fail(`${operation.key} ${field.path}: no foreign id of kind ${kind}_ (add one to FOREIGN_BY_PREFIX)`)
            continue
          }
          const [foreign, madeUp] = [await foreignOf(B), madeUpId(kind)]
          const what = `${operation.key} ${field.in}.${place.join('.')}`
          const asForeign = await refuse(`${what} = B's ${kind}_`, replaced(valid, field, place, foreign), [foreign])
          const asMadeUp = await refuse(`${what} = a made-up ${kind}_`, replaced(valid, field, place, madeUp), [madeUp])
          t.same(answerOf(asForeign), answerOf(asMadeUp), `${what}: the same answer for both`)
        }
      }
      // Unchanged, the request succeeds: the refusals above were about the id.
      requests++
      const control = await sendAsA(operation, valid)
      t.ok(
        control.statusCode >= 200 && control.statusCode < 300,
        `${operation.key} as built: 2xx (${control.statusCode} ${control.body.slice(0, 200)})`,
      )
    }
    for (const field of fields.filter((f) => !named.has(f.path))) {
      const reason = UNNAMEABLE_ID_FIELDS[fieldName(field)]
      const place = placeOfPath(field.path)
      if (!reason || !place || !last) {
        t.fail(`${operation.key} ${field.in}.${field.path}: no valid request names it (add one to fixtures/idVariants.ts)`)
        continue
      }
      const madeUp = madeUpId(field.path.endsWith('quoteId') ? 'qt' : 'agt')
      await refuse(`${operation.key} ${field.in}.${field.path} = a made-up id (${reason})`, replaced(last, field, place, madeUp), [madeUp])
    }
    t.ok(requests <= FOREIGN_IDS_LIMITS.maxRequestsPerOperation, `${operation.key}: ${requests} requests`)
  }
})
