// The checkpoints over HTTP (issue 29, point 2): the latest signed checkpoint verifies with its key; a
// consistency proof between two checkpoints and an inclusion proof of an organization's event verify
// with the RFC 9162 algorithms (an independent check of what the server computed from its stored
// nodes); another organization's event is 404; sizes past the latest checkpoint are 422; the sandbox's
// seal-now answers 201 for a new checkpoint and 200 when the tree did not grow.
import t from 'tap'
import { verifyCheckpoint } from '../../events/integrity/checkpointSignature.js'
import { leafHash, verifyConsistency, verifyInclusion } from '../../events/integrity/merkleTree.js'
import { startTestApp } from '../harness/testApp.js'
import { createEndpoint, sendTestEvent } from '../webhooks/deliveryHelpers.js'

const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })
const other = await h.newOrganization('Other')
const endpoint = await createEndpoint(h, { url: 'https://hooks.example.com/proofs' })
const buf = (hex: string) => Buffer.from(hex, 'hex')

type Checkpoint = { treeSize: number; rootHash: string; sealedAt: string; keyId: string; signature: string; publicKey: string }
const seal = async () => {
  const res = await h.request({ method: 'POST', url: '/v1/sandbox/audit/checkpoints' })
  return { status: res.statusCode, checkpoint: res.json() as Checkpoint }
}

t.test('latest: 404 before any, then the signed checkpoint; seal-now is 201 when the tree grew, 200 when not', async (t) => {
  const none = await h.request({ method: 'GET', url: '/v1/audit/checkpoints/latest' })
  t.equal(none.statusCode, 404)
  t.match(none.json(), { code: 'no_checkpoint' })
  const first = await seal()
  t.equal(first.status, 201)
  const again = await seal()
  t.equal(again.status, 200, 'nothing new: the latest')
  t.same(again.checkpoint, first.checkpoint)
  const latest = await h.request({ method: 'GET', url: '/v1/audit/checkpoints/latest' })
  t.same(latest.json(), first.checkpoint)
  t.ok(verifyCheckpoint(first.checkpoint, Buffer.from(first.checkpoint.publicKey, 'base64')), 'the signature verifies')
  const { rows } = await h.runtime.pool.query('SELECT count(*)::int AS n FROM es_events')
  t.equal(first.checkpoint.treeSize, rows[0].n, 'the seal waited for the sealer to take every stored event')
})

t.test('a consistency proof between two checkpoints verifies', async (t) => {
  const before = (await seal()).checkpoint
  await sendTestEvent(h, endpoint.id)
  const after = await seal()
  t.equal(after.status, 201)
  const res = await h.request({ method: 'GET', url: `/v1/audit/checkpoints/consistency?from=${before.treeSize}` })
  t.equal(res.statusCode, 200, res.body)
  const proof = res.json() as { from: number; to: number; fromRoot: string; toRoot: string; proof: string[] }
  t.match(proof, { from: before.treeSize, to: after.checkpoint.treeSize, fromRoot: before.rootHash, toRoot: after.checkpoint.rootHash })
  t.ok(verifyConsistency(proof.from, proof.to, buf(proof.fromRoot), buf(proof.toRoot), proof.proof.map(buf)), 'RFC 9162 consistency')
  for (let from = 1; from <= after.checkpoint.treeSize; from += Math.max(1, Math.floor(after.checkpoint.treeSize / 7))) {
    const each = (await h.request({ method: 'GET', url: `/v1/audit/checkpoints/consistency?from=${from}` })).json() as typeof proof
    if (!verifyConsistency(each.from, each.to, buf(each.fromRoot), buf(each.toRoot), each.proof.map(buf))) t.fail(`from ${from}`)
  }
  const past = await h.request({ method: 'GET', url: `/v1/audit/checkpoints/consistency?from=1&to=${after.checkpoint.treeSize + 1}` })
  t.equal(past.statusCode, 422)
  t.match(past.json(), { code: 'tree_size_not_sealed', details: [{ field: 'to' }] })
  const reversed = await h.request({ method: 'GET', url: `/v1/audit/checkpoints/consistency?from=3&to=2` })
  t.match(reversed.json(), { code: 'invalid_tree_sizes' })
  t.equal((await h.request({ method: 'GET', url: '/v1/audit/checkpoints/consistency?from=0' })).statusCode, 400)
})

t.test("an inclusion proof of the organization's event verifies; another organization's is 404", async (t) => {
  const messageId = await sendTestEvent(h, endpoint.id)
  const eventId = messageId.slice('evt_'.length)
  const unsealed = await h.request({ method: 'GET', url: `/v1/audit/events/${eventId}/inclusion` })
  t.ok([404, 409].includes(unsealed.statusCode), 'not in the latest checkpoint yet (or not yet a leaf)')
  const { checkpoint } = await seal()
  const res = await h.request({ method: 'GET', url: `/v1/audit/events/${eventId}/inclusion` })
  t.equal(res.statusCode, 200, res.body)
  const proof = res.json() as { leafIndex: number; treeSize: number; leafHash: string; rootHash: string; proof: string[] }
  t.equal(proof.rootHash, checkpoint.rootHash, 'the root of the latest checkpoint')
  const { rows } = await h.runtime.pool.query('SELECT event_hash FROM es_events WHERE event_id = $1', [eventId])
  t.equal(proof.leafHash, leafHash(buf(rows[0].event_hash)).toString('hex'), "the leaf is the event's chain hash")
  t.ok(
    verifyInclusion(proof.leafIndex, proof.treeSize, buf(proof.leafHash), proof.proof.map(buf), buf(proof.rootHash)),
    'RFC 9162 inclusion',
  )
  const older = await h.request({ method: 'GET', url: `/v1/audit/events/${eventId}/inclusion?treeSize=${proof.leafIndex}` })
  t.equal(older.statusCode, 409)
  t.match(older.json(), { code: 'event_not_sealed' })
  const foreign = await h.request({ method: 'GET', url: `/v1/audit/events/${eventId}/inclusion`, apiKey: other.apiKey })
  t.equal(foreign.statusCode, 404, "another organization's event does not exist for it")
})
