// A production tree in a directory of its own, made as the Dockerfile makes it: the service compiled
// with tsconfig.build.json into dist/, beside package.json, package-lock.json and the production
// dependencies only. The commands are named here so the test can hold the Dockerfile to them.
import { spawn } from 'node:child_process'
import { copyFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..')

/** The runtime stage's install (Dockerfile): production dependencies, no optional ones, no install scripts. */
export const PRODUCTION_INSTALL = ['ci', '--omit=dev', '--omit=optional', '--ignore-scripts', '--no-audit', '--no-fund'] as const
/** How the image starts the server (Dockerfile CMD, `npm run start:prod`), from the tree's root. */
export const SERVER_ARGS = ['--enable-source-maps', 'dist/server/main.js'] as const
export const CLI_ARGS = ['--enable-source-maps', 'dist/cli/main.js'] as const

export const BUILD_LIMITS = {
  /** tsc emits the ~800 files in 10-20 s; a loaded machine takes several times that. */
  compileTimeoutMs: 180_000,
  /** From npm's cache (--prefer-offline) 15-45 s here; the registry is asked only for what the cache lacks. */
  installTimeoutMs: 300_000,
  outputMaxChars: 20_000,
} as const

type Run = { code: number | null; output: string; ms: number }

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Run> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const keep = (chunk: string) => (output = (output + chunk).slice(-BUILD_LIMITS.outputMaxChars))
    child.stdout.setEncoding('utf8').on('data', keep)
    child.stderr.setEncoding('utf8').on('data', keep)
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output, ms: Date.now() - started })
    })
  })
}

/**
 * The environment of a build step, as a fresh shell's: tap's NODE_OPTIONS stay out, and so does the
 * npm_* of an `npm test` around this run (npm_config_local_prefix would point npm at the checkout).
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')))
  delete env.NODE_OPTIONS
  delete env.NODE_PATH
  return { ...env, ...extra }
}

/**
 * `tsc -p tsconfig.build.json` (what `npm run build:server` runs) with dist/ in `dir`. `--noCheck`:
 * the same emit without the type check, which test/build/typecheck.test.ts does for the whole project.
 */
export function compileInto(dir: string): Promise<Run> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  const args = [tsc, '-p', path.join(REPO_ROOT, 'tsconfig.build.json'), '--outDir', path.join(dir, 'dist'), '--noCheck']
  return run(process.execPath, args, REPO_ROOT, cleanEnv(), BUILD_LIMITS.compileTimeoutMs)
}

/** package.json and package-lock.json copied into `dir`, then PRODUCTION_INSTALL there, from npm's cache when it can. */
export async function installProductionDependencies(dir: string): Promise<Run> {
  for (const file of ['package.json', 'package-lock.json']) await copyFile(path.join(REPO_ROOT, file), path.join(dir, file))
  return run('npm', [...PRODUCTION_INSTALL, '--prefer-offline'], dir, cleanEnv(), BUILD_LIMITS.installTimeoutMs)
}
