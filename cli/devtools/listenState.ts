// Which webhook endpoint `listen` registered, per API and key, kept in DATA_DIR/cli-listen.json so a
// restart reuses it and its signing secret stays the same. Holds ids only, never a key or a secret.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { hashApiKey } from '../../domain/organization/apiKeys.js'

export const LISTEN_STATE_FILE = 'cli-listen.json'

/** Pairs of (API, key) remembered; the oldest is forgotten past this (its endpoint stays, disabled). */
const MAX_REMEMBERED = 50

const stateSchema = z.object({
  version: z.literal(1),
  endpoints: z
    .array(z.object({ api: z.string().max(2_200), keyHash: z.string().max(64), endpointId: z.string().max(64), usedAt: z.string() }))
    .max(MAX_REMEMBERED),
})
type ListenState = z.infer<typeof stateSchema>

export type ListenStateFile = {
  /** The endpoint remembered for this API and key, if any. */
  endpointFor(baseUrl: string, apiKey: string): Promise<string | undefined>
  remember(baseUrl: string, apiKey: string, endpointId: string): Promise<void>
  path: string
}

export function listenStateFile(dataDir: string): ListenStateFile {
  const file = path.resolve(dataDir, LISTEN_STATE_FILE)
  // A hash, not the key: the file says which key it was for without holding it.
  const keyHashOf = (apiKey: string) => hashApiKey(apiKey).slice(0, 32)

  async function read(): Promise<ListenState> {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, endpoints: [] }
      throw error
    }
    // A damaged file costs one new endpoint (a new secret), never a failed start.
    let parsed: ReturnType<typeof stateSchema.safeParse>
    try {
      parsed = stateSchema.safeParse(JSON.parse(text))
    } catch {
      return { version: 1, endpoints: [] }
    }
    return parsed.success ? parsed.data : { version: 1, endpoints: [] }
  }

  return {
    path: file,
    async endpointFor(baseUrl, apiKey) {
      const keyHash = keyHashOf(apiKey)
      return (await read()).endpoints.find((e) => e.api === baseUrl && e.keyHash === keyHash)?.endpointId
    },
    async remember(baseUrl, apiKey, endpointId) {
      const keyHash = keyHashOf(apiKey)
      const others = (await read()).endpoints.filter((e) => !(e.api === baseUrl && e.keyHash === keyHash))
      const entry = { api: baseUrl, keyHash, endpointId, usedAt: new Date().toISOString() }
      const state: ListenState = { version: 1, endpoints: [entry, ...others].slice(0, MAX_REMEMBERED) }
      await mkdir(path.dirname(file), { recursive: true })
      // Written aside and renamed: an interrupted write leaves the old file, not half a new one.
      const temporary = `${file}.${process.pid}.tmp`
      await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 })
      await rename(temporary, file)
    },
  }
}
