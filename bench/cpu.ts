// CPU use during a measurement, from /proc (Linux only): the server process, our PostgreSQL, the
// load generator (this process) and everything else on the machine, each in % of one core. The
// machine may be shared: a large "other" share means the numbers of that row are disturbed.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import os from 'node:os'

export type CpuShares = { server: number; postgres: number; loadGenerator: number; other: number }

const CLOCK_TICKS_PER_SECOND = 100

type Proc = { ppid: number; ticks: number }

function processes(): Map<number, Proc> {
  const found = new Map<number, Proc>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const raw = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ')
      found.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) })
    } catch {
      // exited while we looked
    }
  }
  return found
}

function machineBusyTicks(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
  // user nice system idle iowait irq softirq steal: busy excludes idle and iowait.
  return fields.slice(0, 8).reduce((sum, v, i) => (i === 3 || i === 4 ? sum : sum + v), 0)
}

/** Starts measuring; the returned function ends the measurement. Undefined where /proc is missing. */
export function measureCpu(serverPid: number | undefined, postmasterPid: number | undefined): (() => CpuShares) | undefined {
  if (os.platform() !== 'linux' || !existsSync('/proc/stat')) return undefined
  const startedAt = process.hrtime.bigint()
  const before = processes()
  const busyBefore = machineBusyTicks()
  const ownBefore = process.cpuUsage()
  return () => {
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9
    const after = processes()
    const busy = machineBusyTicks() - busyBefore
    const own = process.cpuUsage(ownBefore)
    const delta = (pid: number) => (after.get(pid)?.ticks ?? 0) - (before.get(pid)?.ticks ?? 0)
    const server = serverPid === undefined ? 0 : delta(serverPid)
    let postgres = 0
    if (postmasterPid !== undefined) {
      postgres += delta(postmasterPid)
      for (const [pid, p] of after) if (p.ppid === postmasterPid) postgres += delta(pid)
    }
    const loadGenerator = ((own.user + own.system) / 1e6) * CLOCK_TICKS_PER_SECOND
    const pct = (ticks: number) => (ticks / CLOCK_TICKS_PER_SECOND / seconds) * 100
    return {
      server: pct(server),
      postgres: pct(postgres),
      loadGenerator: pct(loadGenerator),
      other: Math.max(0, pct(busy - server - postgres - loadGenerator)),
    }
  }
}

/** Reads the postmaster's pid of a local cluster directory, if there is one. */
export function postmasterPidOf(clusterDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(`${clusterDir}/postmaster.pid`, 'utf8').split('\n')[0])
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/**
 * The requests per second a row's measured work would reach with every core busy on it: its rate
 * times the machine's cores over the CPU the row used (server, PostgreSQL, load generator). A
 * target above it cannot be met here by running the same work elsewhere, only by doing less of it.
 */
export function rateAtFullMachine(requestsPerSecond: number, cpu: CpuShares | undefined, cores = os.cpus().length): number | undefined {
  const used = cpu ? cpu.server + cpu.postgres + cpu.loadGenerator : 0
  return used > 0 ? (requestsPerSecond * cores * 100) / used : undefined
}

/**
 * The requests per second a row's server process would reach at one full core: its rate over the server's share. A
 * Node server runs its JavaScript on one thread, so this bounds it whatever the machine's other cores could add.
 */
export function rateAtFullServerCore(requestsPerSecond: number, cpu: CpuShares | undefined): number | undefined {
  return cpu && cpu.server > 0 ? (requestsPerSecond * 100) / cpu.server : undefined
}
