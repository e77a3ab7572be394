// The embedded cluster's owner file (server/database/clusterOwner.ts): a server takes the cluster
// over when nobody owns it, when a CLI does, when the owner died, or when its pid now names
// another process; never from a live server.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import { claimOwnership, ownerFileOf, ownsCluster, releaseOwnership, shouldTakeOver } from '../../server/database/clusterOwner.js'

const dir = await mkdtemp(path.join(os.tmpdir(), 'payments-owner-'))
t.teardown(() => rm(dir, { recursive: true, force: true }))
const file = ownerFileOf(dir)
const writeOwner = (owner: Record<string, unknown>) => writeFile(file, JSON.stringify(owner))

t.test('nobody, a CLI, or this live server', async (t) => {
  t.equal(await shouldTakeOver(file), true, 'no owner file: take over')
  await writeFile(file, 'not json')
  t.equal(await shouldTakeOver(file), true, 'an unreadable owner file: take over')
  await claimOwnership(file, 'cli')
  t.equal(await shouldTakeOver(file), true, 'a CLI owns it: a server takes over')
  await claimOwnership(file, 'server')
  t.equal(await ownsCluster(file), true, 'this process owns it now')
  t.equal(await shouldTakeOver(file), false, 'a live server owns it: never taken from it')
  await releaseOwnership(file)
  t.equal(await ownsCluster(file), false, 'released')
})

t.test('a dead owner, and a pid reused by another process', async (t) => {
  const child = spawn(process.execPath, ['-e', ''])
  await once(child, 'exit')
  await writeOwner({ pid: child.pid, startTime: null, role: 'server' })
  t.equal(await shouldTakeOver(file), true, 'the owner process is gone')

  await writeOwner({ pid: process.ppid, startTime: '1', role: 'server' })
  t.equal(await shouldTakeOver(file), true, 'a live process under that pid, started at another time: not the owner')
  await writeOwner({ pid: process.ppid, startTime: null, role: 'server' })
  t.equal(await shouldTakeOver(file), false, 'a live process and no start time to tell otherwise: kept')
  t.equal(await ownsCluster(file), false, 'and this process does not own it')
})
