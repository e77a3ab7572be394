// Redocly's `recommended` rules (redocly.yaml) find nothing in the served OpenAPI document: no error
// and no warning. The installed @redocly/cli lints GET /api-json as a file; every problem is printed.
import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startTestApp } from '../harness/testApp.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const REDOCLY = join(ROOT, 'node_modules', '.bin', 'redocly')
const LINT_LIMITS = { timeoutMs: 120_000, maxOutputBytes: 64 * 1024 * 1024 } as const

type Problem = { ruleId: string; severity: string; message: string; location?: { pointer?: string }[] }
type LintReport = { totals: { errors: number; warnings: number }; problems: Problem[] }

const h = await startTestApp(t)

t.test('redocly lint --extends recommended: 0 errors, 0 warnings on /api-json', async (t) => {
  const res = await h.request({ method: 'GET', url: '/api-json', apiKey: null })
  t.equal(res.statusCode, 200)
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'openapi.json')
  await writeFile(file, res.body)
  // Exit code 1 on any error: the report is read either way.
  const stdout = await promisify(execFile)(
    REDOCLY,
    ['lint', '--extends', 'recommended', '--format', 'json', '--max-problems', '10000', file],
    {
      cwd: ROOT,
      timeout: LINT_LIMITS.timeoutMs,
      maxBuffer: LINT_LIMITS.maxOutputBytes,
      // No telemetry and no update check: a test makes no outside calls.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  ).then(
    (done) => done.stdout,
    (failed: { stdout?: string }) => failed.stdout ?? '',
  )
  const report = JSON.parse(stdout) as LintReport
  const listed = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location?.[0]?.pointer ?? '?'}: ${p.message}`)
  t.same(listed, [], 'no problems')
  t.same(report.totals, { ...report.totals, errors: 0, warnings: 0 }, 'totals')
})
