// Who owns (and so stops) the embedded cluster: a small JSON file beside it naming a process by its
// pid and, where /proc exists, its start time, so a pid reused after a `kill -9` is not taken for
// the dead owner. Written atomically (temporary file, then rename).
import { existsSync, readFileSync } from 'node:fs'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'

const ownerSchema = z.object({
  pid: z.number().int().positive(),
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22); null where unknown. */
  startTime: z.string().nullable(),
  /** A server keeps what it owns; a CLI's cluster is handed to the first server that comes. */
  role: z.enum(['server', 'cli']),
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

function isAlive(owner: Owner): boolean {
  if (owner.pid === process.pid) return owner.startTime !== null && owner.startTime === startTimeOf(process.pid)
  try {
    process.kill(owner.pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  // Alive under that pid: the same process only if it started when the owner did.
  return owner.startTime === null || owner.startTime === startTimeOf(owner.pid)
}

async function readOwner(file: string): Promise<Owner | undefined> {
  try {
    return ownerSchema.parse(JSON.parse(await readFile(file, 'utf8')))
  } catch {
    return undefined
  }
}

/** True when a server should take the running cluster over: no live server owns it. */
export async function shouldTakeOver(file: string): Promise<boolean> {
  const owner = await readOwner(file)
  return owner === undefined || owner.role === 'cli' || !isAlive(owner)
}

export async function claimOwnership(file: string, role: Owner['role']): Promise<void> {
  const owner: Owner = { pid: process.pid, startTime: startTimeOf(process.pid), role }
  const staging = `${file}.${process.pid}.tmp`
  await writeFile(staging, JSON.stringify(owner), { mode: 0o600 })
  await rename(staging, file)
}

/** True when the owner file still names this process (a server may have taken over since). */
export async function ownsCluster(file: string): Promise<boolean> {
  const owner = await readOwner(file)
  return owner !== undefined && owner.pid === process.pid && owner.startTime === startTimeOf(process.pid)
}

export async function releaseOwnership(file: string): Promise<void> {
  await rm(file, { force: true })
}
