// The SDK's generated types are those of the document the service serves: regenerated in memory from
// GET /api-json, they equal the committed sdk/src/generated/api.ts, or the test names the command that fixes it.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { GENERATED_FILE, GENERATE_COMMAND, generateTypes } from '../../sdk/codegen/generateTypes.js'
import { startTestApp } from '../harness/testApp.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** Where two texts first differ, as a line number and both lines (a whole diff of the file would be megabytes). */
function firstDifference(committed: string, fresh: string): string {
  const a = committed.split('\n')
  const b = fresh.split('\n')
  const line = a.findIndex((text, i) => text !== b[i])
  const at = line === -1 ? a.length : line
  const shown = (text: string | undefined) => (text ?? '(end of file)').slice(0, 200)
  return `line ${at + 1}:\n  committed: ${shown(a[at])}\n  served:    ${shown(b[at])}`
}

t.test(`${GENERATED_FILE} matches the served /api-json`, async (t) => {
  const h = await startTestApp(t)
  const res = await h.request({ method: 'GET', url: '/api-json', apiKey: null })
  t.equal(res.statusCode, 200)
  const fresh = await generateTypes(res.json())
  const committed = await readFile(path.join(root, GENERATED_FILE), 'utf8')
  const same = fresh === committed
  t.ok(
    same,
    same
      ? 'up to date'
      : `stale: run \`${GENERATE_COMMAND}\` and commit ${GENERATED_FILE}; first difference at ${firstDifference(committed, fresh)}`,
  )
})
