// The Chromium that browser tests drive with playwright-core: CHROMIUM_PATH, else the Debian package's binary. On a
// machine without one, a root user gets the Debian package installed once (as .ci/run does); anyone else gets a
// message that says how.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']
const INSTALL_TIMEOUT_MS = 10 * 60_000

const found = (): string | undefined => {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined
  return CANDIDATES.find((path) => existsSync(path))
}

export function chromiumPath(): string {
  const path = found()
  if (path) return path
  if (process.env.CHROMIUM_PATH) throw new Error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist`)
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    const install = () =>
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
        env,
        stdio: 'ignore',
        timeout: INSTALL_TIMEOUT_MS,
      })
    try {
      install()
    } catch {
      // A fresh machine's package lists may be empty or stale.
      execFileSync('apt-get', ['update'], { env, stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS })
      install()
    }
    const installed = found()
    if (installed) return installed
  }
  throw new Error('No Chromium for the browser tests: install the Debian package (`apt-get install chromium`) or set CHROMIUM_PATH')
}
