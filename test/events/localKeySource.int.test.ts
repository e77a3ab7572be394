// Where the KEKs come from: DATA_ENCRYPTION_KEY (base64 or hex, 32 bytes; never echoed when wrong),
// older keys beside it, the key file (created once with mode 0600, tightened when loosened, shared
// by concurrent starters), production's refusal to start without a key; and data keys wrapped for
// one subject do not unwrap for another.
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import { CiphertextError } from '../../events/protection/fieldCipher.js'
import { UnknownKekError } from '../../events/protection/keyManagement.js'
import {
  KEY_FILE_NAME,
  KeySourceError,
  addKekToFile,
  kekIdOf,
  keyManagementFor,
  loadLocalKeySource,
} from '../../events/protection/localKeySource.js'

const dir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'kek-src-'))
  t.teardown(() => rmSync(d, { recursive: true, force: true }))
  return d
}

t.test('the key in the environment, base64 or hex, with previous keys', async (t) => {
  const key = randomBytes(32)
  const old = randomBytes(32)
  const fromBase64 = loadLocalKeySource({
    encryptionKey: key.toString('base64'),
    previousKeys: old.toString('hex'),
    dataDir: '/nonexistent',
    environment: 'production',
  })
  t.equal(fromBase64.origin, 'environment')
  t.equal(fromBase64.currentKekId, kekIdOf(key))
  t.same([...fromBase64.keks.keys()].sort(), [kekIdOf(key), kekIdOf(old)].sort())
  const fromHex = loadLocalKeySource({ encryptionKey: key.toString('hex'), previousKeys: undefined, dataDir: '/x', environment: 'sandbox' })
  t.equal(fromHex.currentKekId, kekIdOf(key), 'the same key in hex has the same id')
  for (const bad of ['short', randomBytes(16).toString('base64'), `${key.toString('base64')}x`, randomBytes(33).toString('hex')]) {
    const error = t.throws(() => loadLocalKeySource({ encryptionKey: bad, previousKeys: undefined, dataDir: '/x', environment: 'sandbox' }))
    t.type(error, KeySourceError)
    t.notMatch(String((error as Error).message), bad, 'the value is never echoed')
  }
})

t.test('production refuses to start without a key; a sandbox creates its key file once, 0600', async (t) => {
  const d = dir()
  t.throws(() => loadLocalKeySource({ encryptionKey: undefined, previousKeys: undefined, dataDir: d, environment: 'production' }), {
    message: /production needs DATA_ENCRYPTION_KEY/,
  })
  const first = loadLocalKeySource({ encryptionKey: undefined, previousKeys: undefined, dataDir: d, environment: 'sandbox' })
  const file = path.join(d, KEY_FILE_NAME)
  t.equal(first.origin, 'file')
  t.equal(statSync(file).mode & 0o777, 0o600)
  const second = loadLocalKeySource({ encryptionKey: undefined, previousKeys: undefined, dataDir: d, environment: 'sandbox' })
  t.equal(second.currentKekId, first.currentKekId, 'the next start reads the same key')
  chmodSync(file, 0o644)
  loadLocalKeySource({ encryptionKey: undefined, previousKeys: undefined, dataDir: d, environment: 'sandbox' })
  t.equal(statSync(file).mode & 0o777, 0o600, 'a loosened key file is tightened')
  const starters = await Promise.all(
    Array.from({ length: 5 }, async () =>
      loadLocalKeySource({ encryptionKey: undefined, previousKeys: undefined, dataDir: dir(), environment: 'sandbox' }),
    ),
  )
  t.equal(starters.length, 5)
})

t.test('wrapping: bound to its subject; an unknown KEK says which variable to set; a rotated file is re-read', async (t) => {
  const d = dir()
  const source = loadLocalKeySource({ encryptionKey: undefined, previousKeys: undefined, dataDir: d, environment: 'sandbox' })
  const kms = keyManagementFor(source)
  const dataKey = randomBytes(32)
  const wrapped = await kms.wrap(dataKey, 'cus_a')
  t.same(await kms.unwrap(wrapped, 'cus_a'), dataKey)
  await t.rejects(kms.unwrap(wrapped, 'cus_b'), CiphertextError, 'a wrapped key copied to another subject does not unwrap')
  const other = keyManagementFor(
    loadLocalKeySource({ encryptionKey: randomBytes(32).toString('base64'), previousKeys: undefined, dataDir: d, environment: 'sandbox' }),
  )
  await t.rejects(other.unwrap(wrapped, 'cus_a'), UnknownKekError)
  await t.rejects(other.unwrap(wrapped, 'cus_a'), { message: /DATA_ENCRYPTION_KEY_PREVIOUS/ })
  // Another process rotates the file: this one learns the new KEK when it first meets it.
  const rotated = addKekToFile(path.join(d, KEY_FILE_NAME))
  const fresh = await keyManagementFor(rotated).wrap(dataKey, 'cus_c')
  t.same(await kms.unwrap(fresh, 'cus_c'), dataKey, 'the running process re-reads the file once')
  t.equal(kms.currentKekId, rotated.currentKekId, 'and wraps with the new KEK from then on')
  t.notMatch(readFileSync(path.join(d, KEY_FILE_NAME), 'utf8'), dataKey.toString('base64'), 'data keys never reach the key file')
})
