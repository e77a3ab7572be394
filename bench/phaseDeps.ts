// What a bench phase that runs its own servers gets from bench/run.ts (or from its own runAlone): a
// database per purpose, child servers, the postmaster's pid (for the CPU column) and a log.
import type { ServerChild } from './child.js'

export type PhaseDeps = {
  createDatabase: (purpose: string) => Promise<string>
  startChild: (script: string, env: Record<string, string>) => Promise<ServerChild>
  stopChild: (child: ServerChild) => Promise<void>
  postmasterPid: number | undefined
  log: (message: string) => void
}
