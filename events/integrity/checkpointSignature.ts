// A signed checkpoint of the event log: the Merkle tree's size and root over the events' hashes in
// commit order, and the time it was sealed, signed with Ed25519 (node:crypto). The signed bytes are
// the RFC 8785 JSON of those three fields, so an auditor can check a checkpoint with any Ed25519
// library and the public key alone. The key is a 32-byte seed from configuration (not wired yet).
import { type KeyObject, createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto'

export type CheckpointBody = {
  /** Events in the tree: the first `treeSize` of the log in commit order. */
  treeSize: number
  /** RFC 6962 root, hex. */
  rootHash: string
  /** When it was sealed, ISO 8601 UTC. */
  sealedAt: string
}

export type SignedCheckpoint = CheckpointBody & {
  /** The public key's id: the first 16 hex characters of the SHA-256 of its raw 32 bytes. */
  keyId: string
  /** Ed25519 over checkpointText(body), base64. */
  signature: string
}

/** The canonical text that is signed: keys in RFC 8785 order, no spaces. */
export function checkpointText(body: CheckpointBody): string {
  if (!Number.isSafeInteger(body.treeSize) || body.treeSize < 0) throw new RangeError('treeSize must be a non-negative integer')
  if (!/^[0-9a-f]{64}$/.test(body.rootHash)) throw new RangeError('rootHash must be 64 hex characters')
  return `{"rootHash":"${body.rootHash}","sealedAt":"${new Date(body.sealedAt).toISOString()}","treeSize":${body.treeSize}}`
}

// PKCS#8 and SPKI wrappers of a raw Ed25519 key (RFC 8410): node:crypto takes keys in these forms.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

export type CheckpointSigner = { keyId: string; publicKey: KeyObject; publicKeyRaw: Buffer; sign(body: CheckpointBody): SignedCheckpoint }

export function checkpointSigner(seed: Buffer): CheckpointSigner {
  if (seed.length !== 32) throw new RangeError('an Ed25519 signing key is 32 bytes')
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' })
  const publicKey = createPublicKey(privateKey)
  const publicKeyRaw = publicKey.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length)
  const keyId = keyIdOf(publicKeyRaw)
  return {
    keyId,
    publicKey,
    publicKeyRaw,
    sign: (body) => ({ ...body, keyId, signature: sign(null, Buffer.from(checkpointText(body)), privateKey).toString('base64') }),
  }
}

export function keyIdOf(publicKeyRaw: Buffer): string {
  return createHash('sha256').update(publicKeyRaw).digest('hex').slice(0, 16)
}

/** Whether the checkpoint was signed by this public key (raw 32 bytes) and is unchanged since. */
export function verifyCheckpoint(checkpoint: SignedCheckpoint, publicKeyRaw: Buffer): boolean {
  if (publicKeyRaw.length !== 32 || checkpoint.keyId !== keyIdOf(publicKeyRaw)) return false
  const publicKey = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKeyRaw]), format: 'der', type: 'spki' })
  try {
    return verify(null, Buffer.from(checkpointText(checkpoint)), publicKey, Buffer.from(checkpoint.signature, 'base64'))
  } catch {
    return false
  }
}
