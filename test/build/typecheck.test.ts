// The whole project (service, tests, bench) type-checks: tsx runs TypeScript without checking it,
// so without this a type error would pass every other test.
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

/** tsc --noEmit on one project: its errors, or '' when there are none. */
function typeErrors(project: string): Promise<string> {
  return new Promise<string>((resolve) => {
    execFile(
      process.execPath,
      [tsc, '--noEmit', '-p', project],
      { cwd: root, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve(error ? `${stdout}${stderr}`.trim() || String(error) : '')
      },
    )
  })
}

t.test('tsc --noEmit reports no errors', async (t) => {
  t.equal(await typeErrors(root), '', 'no type errors')
})

// The browser console is its own project (DOM types, JSX for Preact, bundler resolution): checked the same way.
t.test('the console type-checks', async (t) => {
  t.equal(await typeErrors(path.join(root, 'console')), '', 'no type errors in console/')
})
