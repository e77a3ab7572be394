// The processes tests spawn (the CLI, the server, and the test programs that stand in for them),
// compiled once per tap run by the `before` script into plain JavaScript. Starting one through tsx
// costs ~1.5 s of CPU (the tsx wrapper, then every module compiled or read from its cache); the
// prebuilt bundle ~0.5 s, and the CLI e2e tests start dozens. The bundles are the same sources
// through the same compiler (esbuild, which tsx uses), with npm packages loaded from node_modules.
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { build } from 'esbuild'
import { harnessBuildDir } from './harnessFile.js'

const REPO_ROOT = path.resolve(import.meta.dirname, '../..')

/** What can be spawned prebuilt, by path from the repository root. */
export const PREBUILT_ENTRIES = [
  'cli/main.ts',
  'server/main.ts',
  'test/cli/fixtures/registerSnapshotFunds.ts',
  'test/webhooks/deliveryDispatcherProcess.ts',
  'test/proofs/fixtures/clusterUser.ts',
] as const

export type PrebuiltEntry = (typeof PREBUILT_ENTRIES)[number]

const builtFile = (dir: string, entry: PrebuiltEntry) => path.join(dir, entry.replace(/\.ts$/, '.mjs'))

/**
 * Bundles every entry into the run's directory. One build with code splitting: modules the entries
 * share are shared chunks, so a module `--import`ed before the CLI (a test's own aggregate put in
 * the catalog) changes the very catalog the CLI reads, as it does under tsx.
 */
export async function buildPrebuilt(): Promise<void> {
  const outdir = harnessBuildDir()
  await rm(outdir, { recursive: true, force: true })
  await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [...PREBUILT_ENTRIES],
    outbase: '.',
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  })
}

export async function removePrebuilt(): Promise<void> {
  await rm(harnessBuildDir(), { recursive: true, force: true })
}

/**
 * Node's arguments to run `entry` (the cwd being the repository root), `imports` loaded first: the
 * run's bundles when its `before` script built them, else the sources through tsx (a test file run
 * on its own, outside tap). Stack traces point at the TypeScript either way.
 */
export function nodeArgsFor(entry: PrebuiltEntry, imports: readonly PrebuiltEntry[] = []): string[] {
  const dir = harnessBuildDir()
  const prebuilt = existsSync(builtFile(dir, entry))
  const file = (e: PrebuiltEntry) => (prebuilt ? builtFile(dir, e) : e)
  return [
    ...(prebuilt ? ['--enable-source-maps'] : ['--import', 'tsx']),
    ...imports.flatMap((i) => ['--import', path.resolve(REPO_ROOT, file(i))]),
    file(entry),
  ]
}
