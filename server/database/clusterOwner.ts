// Who owns (and so stops) the embedded cluster: a small JSON file beside it naming a process by its
// pid and, where /proc exists, its start time, so a pid reused after a `kill -9` is not taken for
// the dead owner. Written atomically (temporary file, then rename). A server that begins to stop
// marks itself `stopping`: a server arriving or running beside it takes the cluster over then, so
// the stopping one leaves it running (a restart while the old process still shuts down).
import { existsSync, readFileSync } from 'node:fs'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'

export const processIdentitySchema = z.object({
  pid: z.number().int().positive(),
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22); null where unknown. */
  startTime: z.string().nullable(),
})

/** One process, told apart from a later one under the same pid. */
export type ProcessIdentity = z.infer<typeof processIdentitySchema>

const ownerSchema = processIdentitySchema.extend({
  /** A server keeps what it owns; a CLI's cluster is handed to the first server that comes. */
  role: z.enum(['server', 'cli']),
  /** The owner has begun to stop: another server may take the cluster over (absent in files of earlier versions). */
  stopping: z.boolean().default(false),
})

type Owner = z.infer<typeof ownerSchema>

export const ownerFileOf = (dataDir: string) => path.join(dataDir, 'postgres-owner.json')

/** A process's start time from /proc, or null off Linux (or when it is gone). */
function startTimeOf(pid: number): string | null {
  const file = `/proc/${pid}/stat`
  if (!existsSync(file)) return null
  try {
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const stat = readFileSync(file, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

export const thisProcess = (): ProcessIdentity => ({ pid: process.pid, startTime: startTimeOf(process.pid) })

/** The identity of another running process, for handing it the cluster. */
export const processOf = (pid: number): ProcessIdentity => ({ pid, startTime: startTimeOf(pid) })

export const isThisProcess = (identity: ProcessIdentity): boolean =>
  identity.pid === process.pid && identity.startTime === startTimeOf(process.pid)

export function isAlive(identity: ProcessIdentity): boolean {
  if (identity.pid === process.pid) return identity.startTime !== null && identity.startTime === startTimeOf(process.pid)
  try {
    process.kill(identity.pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  // Alive under that pid: the same process only if it started when the owner did.
  return identity.startTime === null || identity.startTime === startTimeOf(identity.pid)
}

async function readOwner(file: string): Promise<Owner | undefined> {
  try {
    return ownerSchema.parse(JSON.parse(await readFile(file, 'utf8')))
  } catch {
    return undefined
  }
}

async function writeOwner(file: string, owner: Owner): Promise<void> {
  const staging = `${file}.${process.pid}.tmp`
  await writeFile(staging, JSON.stringify(owner), { mode: 0o600 })
  await rename(staging, file)
}

/** True when a server should take the running cluster over: no live server owns it, or its owner is stopping. */
export async function shouldTakeOver(file: string): Promise<boolean> {
  const owner = await readOwner(file)
  return owner === undefined || owner.role === 'cli' || owner.stopping || !isAlive(owner)
}

export async function claimOwnership(file: string, role: Owner['role']): Promise<void> {
  await writeOwner(file, { ...thisProcess(), role, stopping: false })
}

/** Names another server as the owner: the stopping owner's hand-over, so the cluster outlives it. */
export async function handOwnershipTo(file: string, server: ProcessIdentity): Promise<void> {
  await writeOwner(file, { ...server, role: 'server', stopping: false })
}

/** True when the owner file still names this process (a server may have taken over since). */
export async function ownsCluster(file: string): Promise<boolean> {
  const owner = await readOwner(file)
  return owner !== undefined && isThisProcess(owner)
}

/** Marks this process's ownership as stopping; nothing when another process owns the cluster. */
export async function markStopping(file: string): Promise<void> {
  const owner = await readOwner(file)
  if (owner !== undefined && isThisProcess(owner)) await writeOwner(file, { ...owner, stopping: true })
}

/** Removes the owner file when it still names this process: a server may have claimed it since. */
export async function releaseOwnership(file: string): Promise<void> {
  if (await ownsCluster(file)) await rm(file, { force: true })
}
