// Where the checkpoint signing key comes from: AUDIT_SIGNING_KEY (never echoed when wrong), or in
// sandbox a key file created once under DATA_DIR with mode 0600 and reused; production refuses to start
// without the variable.
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { SIGNING_KEY_FILE_NAME, loadAuditSigner } from '../../events/integrity/auditSigningKey.js'
import { checkpointSigner } from '../../events/integrity/checkpointSignature.js'

const dir = await mkdtemp(path.join(tmpdir(), 'audit-key-'))
t.teardown(() => rm(dir, { recursive: true, force: true }))
const seed = Buffer.alloc(32, 3)

t.test('AUDIT_SIGNING_KEY, base64 or hex', async (t) => {
  const expected = checkpointSigner(seed).keyId
  t.equal(loadAuditSigner({ signingKey: seed.toString('base64'), dataDir: dir, environment: 'production' }).keyId, expected)
  t.equal(loadAuditSigner({ signingKey: seed.toString('hex'), dataDir: dir, environment: 'sandbox' }).keyId, expected)
  const secret = 'not-a-key-but-a-secret-value'
  let message = ''
  try {
    loadAuditSigner({ signingKey: secret, dataDir: dir, environment: 'sandbox' })
  } catch (error) {
    message = (error as Error).message
  }
  t.match(message, /AUDIT_SIGNING_KEY must be 32 random bytes/)
  t.notMatch(message, secret, 'the value is never echoed')
})

t.test('production refuses to start without it', async (t) => {
  t.throws(() => loadAuditSigner({ signingKey: undefined, dataDir: dir, environment: 'production' }), {
    message: /production needs AUDIT_SIGNING_KEY/,
  })
})

t.test('a sandbox keeps one key file, mode 0600, and reuses it', async (t) => {
  const first = loadAuditSigner({ signingKey: undefined, dataDir: dir, environment: 'sandbox' })
  const again = loadAuditSigner({ signingKey: undefined, dataDir: dir, environment: 'sandbox' })
  t.equal(again.keyId, first.keyId, 'the same key on the next start')
  t.equal((await stat(path.join(dir, SIGNING_KEY_FILE_NAME))).mode & 0o777, 0o600)
})
