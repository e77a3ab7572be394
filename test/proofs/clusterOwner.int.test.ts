// The embedded cluster's owner file (server/database/clusterOwner.ts): a server takes the cluster
// over when nobody owns it, when a CLI does, when the owner died or is stopping, or when its pid now
// names another process; never from a live server that is not stopping. And the registry of the
// servers using it (clusterServers.ts), which a stopping owner hands the cluster to.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import {
  claimOwnership,
  handOwnershipTo,
  markStopping,
  ownerFileOf,
  ownsCluster,
  processOf,
  releaseOwnership,
  shouldTakeOver,
} from '../../server/database/clusterOwner.js'
import { deregisterServer, otherLiveServers, registerServer } from '../../server/database/clusterServers.js'

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

// Issue 24, D13: a stopping owner hands over; a release never removes another process's claim.
t.test('a stopping owner is taken over, hands over, and releases only its own claim', async (t) => {
  await claimOwnership(file, 'server')
  t.equal(await shouldTakeOver(file), false, 'a live server owns it')
  await markStopping(file)
  t.equal(await ownsCluster(file), true, 'marking does not give it away')
  t.equal(await shouldTakeOver(file), true, 'a stopping owner: a server takes over')

  await writeOwner({ pid: process.ppid, startTime: null, role: 'server' })
  await markStopping(file)
  t.equal(await shouldTakeOver(file), false, "marking another process's ownership does nothing")
  await releaseOwnership(file)
  t.equal(await shouldTakeOver(file), false, "nor does releasing it: the other process's claim stays")

  await claimOwnership(file, 'server')
  await handOwnershipTo(file, processOf(process.ppid))
  t.equal(await ownsCluster(file), false, 'handed over')
  t.equal(await shouldTakeOver(file), false, 'to a live server')
})

t.test('the servers registered on a DATA_DIR: this one is not listed, dead ones are removed', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'payments-servers-'))
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  await registerServer(dataDir)
  t.same(await otherLiveServers(dataDir), [], 'only this process')
  const serversDir = path.join(dataDir, 'postgres-servers')
  const parent = processOf(process.ppid)
  await writeFile(path.join(serversDir, `${process.ppid}.json`), JSON.stringify(parent))
  const child = spawn(process.execPath, ['-e', ''])
  await once(child, 'exit')
  await writeFile(path.join(serversDir, `${child.pid}.json`), JSON.stringify({ pid: child.pid, startTime: null }))
  await writeFile(path.join(serversDir, 'garbage.json'), 'not json')
  t.same(await otherLiveServers(dataDir), [parent], 'the live one')
  t.same((await readdir(serversDir)).sort(), [`${process.pid}.json`, `${process.ppid}.json`].sort(), 'dead and unreadable entries removed')
  await deregisterServer(dataDir)
  t.same(await readdir(serversDir), [`${process.ppid}.json`])
})
