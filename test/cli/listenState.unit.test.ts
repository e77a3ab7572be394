// listen's state file: one endpoint remembered per (API, key), the key itself never written, a damaged
// file read as empty (a new endpoint, never a failed start).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import { listenStateFile } from '../../cli/devtools/listenState.js'

const dir = await mkdtemp(path.join(os.tmpdir(), 'listen-state-'))
t.teardown(() => rm(dir, { recursive: true, force: true }))
const KEY_A = `sk_sandbox_${'a'.repeat(32)}`
const KEY_B = `sk_sandbox_${'b'.repeat(32)}`

t.test('remembered per API and key, in a file that holds no key', async (t) => {
  const state = listenStateFile(path.join(dir, 'nested'))
  t.equal(await state.endpointFor('http://localhost:3000', KEY_A), undefined, 'nothing yet (and no file)')
  await state.remember('http://localhost:3000', KEY_A, 'ep_a')
  await state.remember('http://localhost:3000', KEY_B, 'ep_b')
  await state.remember('http://localhost:4000', KEY_A, 'ep_c')
  await state.remember('http://localhost:3000', KEY_A, 'ep_a2')
  t.equal(await state.endpointFor('http://localhost:3000', KEY_A), 'ep_a2', 'the latest for that pair')
  t.equal(await state.endpointFor('http://localhost:3000', KEY_B), 'ep_b')
  t.equal(await state.endpointFor('http://localhost:4000', KEY_A), 'ep_c')
  const text = await readFile(state.path, 'utf8')
  t.notOk(text.includes(KEY_A) || text.includes('a'.repeat(32)), 'no key in the file')
})

t.test('a damaged file reads as empty and is replaced on the next remember', async (t) => {
  const state = listenStateFile(dir)
  await writeFile(state.path, '{"version":1,"endpoints":[{"api"')
  t.equal(await state.endpointFor('http://localhost:3000', KEY_A), undefined)
  await state.remember('http://localhost:3000', KEY_A, 'ep_new')
  t.equal(await state.endpointFor('http://localhost:3000', KEY_A), 'ep_new')
})
