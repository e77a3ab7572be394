// One formatter (Prettier, .prettierrc.json) and one linter (typescript-eslint, eslint.config.js)
// check every file, and no source line is longer than 140 characters (the formatter wraps code;
// this also catches strings and comments).
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const require = createRequire(import.meta.url)
const prettier = require.resolve('prettier/bin/prettier.cjs')
const eslint = path.join(path.dirname(require.resolve('eslint/package.json')), 'bin/eslint.js')
export const MAX_LINE_LENGTH = 140
/**
 * Generated code, checked against its source instead: the SDK's types (test/sdk/generated.e2e.test.ts) and the
 * recorded OpenAPI examples, whose answers hold long strings (a hosted page, a cursor link) no formatter can wrap.
 */
const GENERATED = ['sdk/src/generated/', 'server/openapi/recordedExamples.ts']

function run(file: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: root, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ ok: !error, output: `${stdout}${stderr}`.trim() })
    })
  })
}

t.test('prettier --check passes (run `npm run format` to fix)', async (t) => {
  const { ok, output } = await run(process.execPath, [prettier, '--check', '.'])
  t.ok(ok, ok ? 'formatted' : output)
})

t.test('eslint reports nothing', async (t) => {
  const { ok, output } = await run(process.execPath, [eslint, '--max-warnings=0', '.'])
  t.ok(ok, ok ? 'clean' : output)
})

t.test(`no line of a tracked TypeScript file is over ${MAX_LINE_LENGTH} characters`, async (t) => {
  const { output } = await run('git', ['ls-files', '*.ts', '*.tsx'])
  const files = output
    .split('\n')
    .filter(Boolean)
    .filter((file) => !GENERATED.some((dir) => file.startsWith(dir)))
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
