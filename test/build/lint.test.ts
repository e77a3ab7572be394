// One formatter and linter (Biome, configured in biome.json) checks every file, and no source line
// is longer than 140 characters (the formatter wraps code; this also catches strings and comments).
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome')
export const MAX_LINE_LENGTH = 140

function run(file: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: root, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ ok: !error, output: `${stdout}${stderr}`.trim() })
    })
  })
}

t.test('biome check (format and lint) passes: run `npm run format` to fix formatting', async (t) => {
  const { ok, output } = await run(process.execPath, [biome, 'check', '--max-diagnostics=20', '.'])
  t.ok(ok, ok ? 'clean' : output)
})

t.test(`no line of a tracked TypeScript file is over ${MAX_LINE_LENGTH} characters`, async (t) => {
  const { output } = await run('git', ['ls-files', '*.ts'])
  const files = output.split('\n').filter(Boolean)
  t.ok(files.length > 100, 'found the sources')
  const long: string[] = []
  for (const file of files) {
    const lines = (await readFile(path.join(root, file), 'utf8')).split('\n')
    lines.forEach((line, i) => {
      if ([...line].length > MAX_LINE_LENGTH) long.push(`${file}:${i + 1} (${[...line].length})`)
    })
  }
  t.same(long, [], 'every line fits')
})
