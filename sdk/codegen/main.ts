// `npm run sdk:generate`: regenerates sdk/src/generated/api.ts from the document the service serves at
// /api-json. With `--url <base URL>` it reads a running service; without, it starts one (server/main.ts in
// its own process, on a throwaway embedded PostgreSQL and a free port), reads it and stops it.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { GENERATED_FILE, generateTypes } from './generateTypes.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
/** Start-up of a fresh embedded cluster and the app, with room for a slow, shared machine. */
const SERVER_START_TIMEOUT_MS = 180_000
const POLL_INTERVAL_MS = 250
const FETCH_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 20_000

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

async function readDocument(baseUrl: string): Promise<unknown> {
  const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/api-json`, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
  if (!response.ok) throw new Error(`GET /api-json: ${response.status}`)
  return response.json()
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
  await exited
  clearTimeout(timer)
}

/** The document of a service started here for the purpose, never one touching a configured database. */
async function documentOfStartedService(): Promise<unknown> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sdk-generate-'))
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }
  delete env.DATABASE_URL
  delete env.EVENTSTORE_URL
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] })
  try {
    const deadline = Date.now() + SERVER_START_TIMEOUT_MS
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before serving /api-json`)
      try {
        return await readDocument(`http://127.0.0.1:${port}`)
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`the service did not serve /api-json within ${SERVER_START_TIMEOUT_MS} ms`, { cause: error })
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS))
    }
  } finally {
    await stopped(child)
    await rm(dataDir, { recursive: true, force: true })
  }
}

const urlIndex = process.argv.indexOf('--url')
const url = urlIndex === -1 ? undefined : process.argv[urlIndex + 1]
if (urlIndex !== -1 && !url) throw new Error('--url needs the base URL of a running service')
const document = url ? await readDocument(url) : await documentOfStartedService()
const source = await generateTypes(document)
await writeFile(path.join(ROOT, GENERATED_FILE), source)
process.stdout.write(`wrote ${GENERATED_FILE} (${source.length} characters)\n`)
