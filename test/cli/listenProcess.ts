// `listen` as a long-running child process for the listen tests: its stdout read as JSON lines as they
// come (it runs with --json), waited on by predicate, and stopped with a signal as Ctrl-C would.
// Not a test file (tap runs *.test.ts only).
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import { nodeArgsFor } from '../harness/prebuilt.js'
import { REPO_ROOT, childEnv } from './fixtures/runCli.js'

export type ListenLine = Record<string, unknown>

export type ListenProcess = {
  lines: ListenLine[]
  stderr(): string
  waitForLine(predicate: (line: ListenLine) => boolean, what: string, timeoutMs?: number): Promise<ListenLine>
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
  kill(): void
}

/** A start through tsx on a loaded machine takes several seconds; prebuilt, under one. */
const WAIT_MS = 30_000

export function startListen(args: string[], env: Record<string, string>): ListenProcess {
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(process.execPath, [...nodeArgsFor('cli/main.ts'), 'listen', ...args], {
    cwd: REPO_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: ListenLine[] = []
  let pending = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk
    const complete = pending.split('\n')
    pending = complete.pop() ?? ''
    for (const line of complete) if (line.trim()) lines.push(JSON.parse(line) as ListenLine)
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return {
    lines,
    stderr: () => stderr,
    async waitForLine(predicate, what, timeoutMs = WAIT_MS) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = lines.find(predicate)
        if (found) return found
        if (child.exitCode !== null) throw new Error(`listen exited (${child.exitCode}) before ${what}: ${stderr}`)
        if (Date.now() > deadline) throw new Error(`listen printed no ${what} within ${timeoutMs} ms: ${JSON.stringify(lines)} ${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    async stop(signal = 'SIGINT') {
      child.kill(signal)
      return Promise.race([
        exit,
        new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('listen did not exit')), WAIT_MS).unref()),
      ])
    },
    kill: () => void child.kill('SIGKILL'),
  }
}
