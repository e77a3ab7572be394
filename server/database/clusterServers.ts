// The servers using the embedded cluster of a DATA_DIR: one small file each, named by pid, written
// when a server attaches and removed when it stops. The owner reads it before stopping the cluster:
// while another server still uses it, the owner hands ownership over instead of stopping the
// database under it. A killed server leaves its file behind; it is told dead by its start time.
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { type ProcessIdentity, isAlive, isThisProcess, processIdentitySchema, thisProcess } from './clusterOwner.js'

const serversDirOf = (dataDir: string) => path.join(dataDir, 'postgres-servers')
const fileOf = (dataDir: string, pid: number) => path.join(serversDirOf(dataDir), `${pid}.json`)

/** Entries read at most; a DATA_DIR holds a few servers, and stale files are removed as they are met. */
const MAX_ENTRIES = 1_000

export async function registerServer(dataDir: string): Promise<void> {
  await mkdir(serversDirOf(dataDir), { recursive: true, mode: 0o700 })
  await writeFile(fileOf(dataDir, process.pid), JSON.stringify(thisProcess()), { mode: 0o600 })
}

export async function deregisterServer(dataDir: string): Promise<void> {
  await rm(fileOf(dataDir, process.pid), { force: true })
}

function parse(text: string): ProcessIdentity | undefined {
  try {
    return processIdentitySchema.parse(JSON.parse(text))
  } catch {
    return undefined
  }
}

/** The other servers alive on this DATA_DIR's cluster, in no particular order; stale entries are removed. */
export async function otherLiveServers(dataDir: string): Promise<ProcessIdentity[]> {
  const names = await readdir(serversDirOf(dataDir)).catch(() => [])
  const live: ProcessIdentity[] = []
  for (const name of names.filter((n) => n.endsWith('.json')).slice(0, MAX_ENTRIES)) {
    const file = path.join(serversDirOf(dataDir), name)
    const server = parse(await readFile(file, 'utf8').catch(() => ''))
    if (server !== undefined && isThisProcess(server)) continue
    if (server !== undefined && isAlive(server)) live.push(server)
    else await rm(file, { force: true })
  }
  return live
}
