// One way to run a command (issue 25): every caller goes through the command runtime's object
// (commands/runtime/commandRuntime.ts), and the parts behind it are its own. Checked on every import
// of every .ts file, tests and benches included: a file outside the runtime that reaches one of its
// private modules (the command loop, the loaders, the kept states, the turns) fails here. The
// runtime's own tests (test/commands/runtime/) may test its parts directly.
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { ALL_CODE, type Import, readImports } from './importGraph.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const RUNTIME = 'commands/runtime/'
const RUNTIME_TESTS = 'test/commands/runtime/'

/** What callers may import from the runtime; every other file in it is private (a new file is, until listed here). */
const PUBLIC_MODULES = new Set([
  'commandRuntime.ts', // the entry: createCommandRuntime, CommandRuntime, Commands, deciderBinding
  'commandResult.ts',
  'commandOrigin.ts',
  'requestOrigin.ts',
  'commandLimits.ts',
  'crashPoints.ts',
  'streamLock.ts', // the port, and its errors (503)
  'postgresStreamLock.ts',
  'streamQueue.ts', // StreamQueueFullError (503)
  'snapshotStore.ts',
  'postgresSnapshotStore.ts',
  'snapshots.ts', // a snapshot store in use (snapshotting), handed to createCommandRuntime
  'takeSnapshot.ts', // `snapshots rebuild`
])

const runtimeFiles = readdirSync(path.join(root, RUNTIME)).filter((f) => f.endsWith('.ts'))
const privateModules = new Set(runtimeFiles.filter((f) => !PUBLIC_MODULES.has(f)).map((f) => RUNTIME + f))

function violation(i: Import, privates: ReadonlySet<string>): string | undefined {
  if (i.external || !privates.has(i.to)) return undefined
  if (i.from.startsWith(RUNTIME) || i.from.startsWith(RUNTIME_TESTS)) return undefined
  return `${i.from} imports ${i.to}, a private part of the command runtime: use CommandRuntime (handle, load, bind)`
}

t.test('no file outside the runtime reaches its private parts', async (t) => {
  const { files, imports } = readImports(root, ALL_CODE)
  t.ok(files.some((f) => f.startsWith('test/')) && files.some((f) => f.startsWith('bench/')), 'tests and benches are read too')
  t.ok(
    privateModules.has(`${RUNTIME}runCommand.ts`) && privateModules.has(`${RUNTIME}loadAggregate.ts`),
    'the loop and the loaders are private',
  )
  for (const name of PUBLIC_MODULES) t.ok(runtimeFiles.includes(name), `${name} exists`)
  const found = imports.map((i) => violation(i, privateModules)).filter((v) => v !== undefined)
  t.same(found, [], 'every command and every load goes through the runtime object')
})

t.test('the old ways are gone: no handleCommand, no storeCommands, no per-store module state', async (t) => {
  const { files } = readImports(root, ALL_CODE)
  const named = files.filter(
    (f) => f !== 'test/build/commandRuntimeEntry.unit.test.ts' && /\b(handleCommand|storeCommands)\b/.test(read(f)),
  )
  t.same(named, [], 'no file names handleCommand or storeCommands')
  // What a runtime keeps between commands lives in its object (runtimeState.ts), never in a module-level map.
  const moduleState = runtimeFiles.filter((f) => /^(const|let) \w+(: [^=]+)? = new (WeakMap|Map|Set)\b/m.test(read(RUNTIME + f)))
  t.same(moduleState, [], 'no module-level maps in the runtime')
})

t.test('the rule catches a private import and passes a public one', async (t) => {
  const at = (from: string, to: string) => violation({ from, to, external: false }, privateModules)
  t.ok(at('commands/transfers/x.ts', `${RUNTIME}loadLatest.ts`), 'a slice may not load around the runtime')
  t.ok(at('test/transfers/x.ts', `${RUNTIME}runCommand.ts`), 'nor may a test outside the runtime’s own')
  t.equal(at('commands/transfers/x.ts', `${RUNTIME}commandRuntime.ts`), undefined, 'the entry is public')
  t.equal(at(`${RUNTIME}commandRuntime.ts`, `${RUNTIME}runCommand.ts`), undefined, 'the runtime uses its parts')
  t.equal(at(`${RUNTIME_TESTS}x.test.ts`, `${RUNTIME}loadAggregate.ts`), undefined, 'its own tests test them')
})

function read(file: string): string {
  return readFileSync(path.join(root, file), 'utf8')
}
