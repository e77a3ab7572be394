// The README's layout table names every top-level folder of the repository, so a newcomer's map
// never misses one.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

t.test('every tracked top-level folder appears in the README layout table', async (t) => {
  const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean)
  const folders = [...new Set(tracked.filter((f) => f.includes('/')).map((f) => f.split('/')[0]!))].sort()
  t.ok(folders.includes('domain') && folders.includes('server'), 'read the tracked folders')
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8')
  const table = readme.slice(readme.indexOf('| folder | holds |'))
  const rows = table.split('\n').filter((line) => line.startsWith('|'))
  const named = new Set(rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([^`/]+)\/`/g)].map((m) => m[1]!)))
  t.same(
    folders.filter((f) => !named.has(f)),
    [],
    'no folder missing from the table',
  )
})
