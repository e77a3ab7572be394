// `listen` as a long-running child process for the listen tests: its stdout read line by line as it comes
// (parsed when it runs with --json), waited on by predicate, and stopped with a signal as Ctrl-C would.
// Not a test file (tap runs *.test.ts only).
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import { nodeArgsFor } from '../harness/prebuilt.js'
import { REPO_ROOT, childEnv } from './fixtures/runCli.js'

export type ListenLine = Record<string, unknown>

export type ListenProcess = {
  /** The JSON lines (--json). */
  lines: ListenLine[]
  /** Every line as printed. */
  text: string[]
  stderr(): string
  waitForLine(predicate: (line: ListenLine) => boolean, what: string, timeoutMs?: number): Promise<ListenLine>
  waitForText(predicate: (line: string) => boolean, what: string, timeoutMs?: number): Promise<string>
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
  kill(): void
}

/**
 * A bound, not a speed claim: a start takes about a second prebuilt, but on this shared 2-core machine, beside other
 * test files spawning processes, a first start and its first API calls were seen to take over 30 s.
 */
const WAIT_MS = 90_000

export function startListen(args: string[], env: Record<string, string>): ListenProcess {
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(process.execPath, [...nodeArgsFor('cli/main.ts'), 'listen', ...args], {
    cwd: REPO_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: ListenLine[] = []
  const text: string[] = []
  let pending = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk
    const complete = pending.split('\n')
    pending = complete.pop() ?? ''
    for (const line of complete.filter((l) => l.trim())) {
      text.push(line)
      if (line.startsWith('{')) lines.push(JSON.parse(line) as ListenLine)
    }
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = find()
      if (found !== undefined) return found
      if (child.exitCode !== null) throw new Error(`listen exited (${child.exitCode}) before ${what}: ${stderr}`)
      if (Date.now() > deadline) throw new Error(`listen printed no ${what} within ${timeoutMs} ms: ${JSON.stringify(text)} ${stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  return {
    lines,
    text,
    stderr: () => stderr,
    waitForLine: (predicate, what, timeoutMs = WAIT_MS) => waitFor(() => lines.find(predicate), what, timeoutMs),
    waitForText: (predicate, what, timeoutMs = WAIT_MS) => waitFor(() => text.find(predicate), what, timeoutMs),
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
