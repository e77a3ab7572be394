// Signed checkpoints: Ed25519 over the canonical text of (tree size, root, time), checked with the raw
// public key alone; any changed field, another key or a mangled signature fails. RFC 8032's first test
// key pins the key handling to the standard.
import t from 'tap'
import { checkpointSigner, checkpointText, verifyCheckpoint } from '../../events/integrity/checkpointSignature.js'

// RFC 8032 §7.1, TEST 1: the secret key and its public key.
const RFC_SEED = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex')
const RFC_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'
const body = { treeSize: 42, rootHash: 'ab'.repeat(32), sealedAt: '2026-11-29T10:00:00.000Z' }

t.test('a checkpoint signs the canonical text and verifies with the raw public key', async (t) => {
  const signer = checkpointSigner(RFC_SEED)
  t.equal(signer.publicKeyRaw.toString('hex'), RFC_PUBLIC, 'the RFC 8032 public key')
  t.equal(checkpointText(body), `{"rootHash":"${'ab'.repeat(32)}","sealedAt":"2026-11-29T10:00:00.000Z","treeSize":42}`)
  const signed = signer.sign(body)
  t.match(signed, { ...body, keyId: /^[0-9a-f]{16}$/, signature: /^[A-Za-z0-9+/]{86}==$/ })
  t.ok(verifyCheckpoint(signed, signer.publicKeyRaw))
})

t.test('a changed field, another key or a mangled signature does not verify', async (t) => {
  const signer = checkpointSigner(RFC_SEED)
  const signed = signer.sign(body)
  t.notOk(verifyCheckpoint({ ...signed, treeSize: 43 }, signer.publicKeyRaw), 'size')
  t.notOk(verifyCheckpoint({ ...signed, rootHash: 'cd'.repeat(32) }, signer.publicKeyRaw), 'root')
  t.notOk(verifyCheckpoint({ ...signed, sealedAt: '2026-11-29T10:00:00.001Z' }, signer.publicKeyRaw), 'time')
  t.notOk(verifyCheckpoint({ ...signed, signature: 'AAAA' }, signer.publicKeyRaw), 'signature')
  const other = checkpointSigner(Buffer.alloc(32, 7))
  t.notOk(verifyCheckpoint(signed, other.publicKeyRaw), 'another key')
  t.notOk(verifyCheckpoint({ ...other.sign(body), keyId: signed.keyId }, signer.publicKeyRaw), "another key's signature")
  t.throws(() => checkpointSigner(Buffer.alloc(31)), RangeError)
  t.throws(() => checkpointText({ ...body, rootHash: 'xyz' }), RangeError)
})
