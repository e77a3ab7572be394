// The console in a real browser for tests: the console built by Vite into a temporary folder, a test app serving it on a
// port, and headless Chromium (playwright-core) with every console error and failed request recorded.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Browser, type Page, chromium } from 'playwright-core'
import { build } from 'vite'
import { chromiumPath } from '../harness/chromium.js'

type TapLike = { teardown(fn: () => unknown): void }

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** Builds the console as `npm run build:console` does, into a folder removed at teardown. */
export async function buildConsole(t: TapLike): Promise<string> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'console-dist-'))
  t.teardown(() => rm(outDir, { recursive: true, force: true }))
  await build({ configFile: path.join(root, 'console/vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } })
  return outDir
}

export type BrowserSession = { browser: Browser; page: Page; problems: string[] }

/** A headless Chromium page; `problems` collects the browser's refusals (CSP), page errors and failed loads. */
export async function openBrowser(t: TapLike): Promise<BrowserSession> {
  // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] })
  t.teardown(() => browser.close())
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
  page.setDefaultTimeout(15_000)
  const problems: string[] = []
  // An expected 401 (no session yet) is logged as a console error too, so only the browser's refusals count here.
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`))
  return { browser, page, problems }
}
