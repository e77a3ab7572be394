// Where the checkpoint signing key comes from: AUDIT_SIGNING_KEY (a 32-byte Ed25519 seed, base64 or
// hex), or in sandbox a key file created at first start under DATA_DIR with mode 0600, as the
// data-encryption key does. Production refuses to start without an explicit key: a signing key beside
// the log it vouches for proves nothing to an auditor.
import { randomBytes } from 'node:crypto'
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs'
import path from 'node:path'
import type { Environment } from '../../domain/shared/environment.js'
import { KeySourceError, parseKek } from '../protection/localKeySource.js'
import { type CheckpointSigner, checkpointSigner } from './checkpointSignature.js'

export const SIGNING_KEY_FILE_NAME = 'audit-signing-key'

function fromFile(dataDir: string): Buffer {
  mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, SIGNING_KEY_FILE_NAME)
  try {
    // 0600 from the first byte; `wx`: another process (the CLI beside the server) may have made it first.
    const fd = openSync(file, 'wx', 0o600)
    try {
      writeSync(fd, `${randomBytes(32).toString('base64')}\n`)
    } finally {
      closeSync(fd)
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600)
  return parseKek(readFileSync(file, 'utf8'), file)
}

export function loadAuditSigner(options: { signingKey: string | undefined; dataDir: string; environment: Environment }): CheckpointSigner {
  if (options.signingKey) return checkpointSigner(parseKek(options.signingKey, 'AUDIT_SIGNING_KEY'))
  if (options.environment === 'production')
    throw new KeySourceError('production needs AUDIT_SIGNING_KEY (32 random bytes, base64) to sign the audit checkpoints')
  return checkpointSigner(fromFile(options.dataDir))
}
