// Starts a benchmark server (serveApp.ts, toyServer.ts) in its own Node process, so autocannon's
// CPU use stays out of the server's process. The child prints one JSON line with its port when it
// listens, and exits when told (SIGTERM) or when its stdin closes (this process died).
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

export const CHILD_LIMITS = {
  startTimeoutMs: 60_000,
  stopTimeoutMs: 10_000,
} as const

export type ReadyLine = { port: number } & Record<string, unknown>

export type ServerChild = {
  pid: number
  ready: ReadyLine
  baseUrl: string
  /** Stops the child's event consumers and its read-your-writes wait (benchService.ts); resolves once it says so. */
  stopConsumers(): Promise<void>
  stop(): Promise<void>
}

/** The line a bench service prints once its consumers have stopped (SIGUSR2). */
export const CONSUMERS_STOPPED_LINE = JSON.stringify({ consumersStopped: true })

const running = new Set<ChildProcess>()

/**
 * The Node flags `npm start` gives the server (package.json's start script: `tsx <flags> server/main.ts`), so every bench
 * server, the toys included, runs on the runtime settings production runs on.
 */
export function startScriptNodeFlags(): string[] {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }
  return manifest.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'))
}
const SERVER_FLAGS = startScriptNodeFlags()

/** Kills every child still running; for the orchestrator's exit path. */
export function killAllChildren(): void {
  for (const child of running) child.kill('SIGKILL')
}

export async function startServerChild(script: string, env: Record<string, string>): Promise<ServerChild> {
  const file = fileURLToPath(new URL(script, import.meta.url))
  // BENCH_CPU_PROF=<dir> profiles every server child (node refuses --cpu-prof in NODE_OPTIONS).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
  const child = spawn(process.execPath, [...SERVER_FLAGS, ...profile, '--import', 'tsx', file], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  running.add(child)
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child)
      resolve()
    }),
  )

  const lines = createInterface({ input: child.stdout! })
  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not report its port within ${CHILD_LIMITS.startTimeoutMs} ms`)),
      CHILD_LIMITS.startTimeoutMs,
    )
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return
      const parsed = JSON.parse(line) as Partial<ReadyLine>
      if (typeof parsed.port !== 'number') return
      clearTimeout(timer)
      resolve(parsed as ReadyLine)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${script} exited with code ${String(code)} before listening`))
    })
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL')
    await exited
    throw error
  })

  return {
    pid: child.pid!,
    ready,
    baseUrl: `http://127.0.0.1:${ready.port}`,
    stopConsumers: () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          lines.off('line', onLine)
          reject(new Error(`${script} did not stop its consumers`))
        }, CHILD_LIMITS.stopTimeoutMs)
        const onLine = (line: string) => {
          if (line !== CONSUMERS_STOPPED_LINE) return
          clearTimeout(timer)
          lines.off('line', onLine)
          resolve()
        }
        lines.on('line', onLine)
        child.kill('SIGUSR2')
      }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_LIMITS.stopTimeoutMs)
      await exited
      clearTimeout(timer)
    },
  }
}

/** In a child: exit cleanly on SIGTERM/SIGINT or when the parent goes away (stdin closes). */
export function stopWhenToldOrOrphaned(close: () => Promise<void>): void {
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    const timer = setTimeout(() => process.exit(1), CHILD_LIMITS.stopTimeoutMs)
    timer.unref()
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${String(error)}\n`)
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  process.stdin.on('end', stop)
  process.stdin.on('error', stop)
  process.stdin.resume()
}
