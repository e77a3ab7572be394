// Installs a Debian package a test drives (jq, chromium) on a machine that lacks it, as `.ci/run` does: only as root
// with apt-get, once per package and process; anyone else gets the test's own message saying what to install.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const INSTALL_TIMEOUT_MS = 10 * 60_000
const tried = new Set<string>()

/** True when the package was installed now; false when this machine cannot install it (not root, no apt-get). */
export function installDebianPackage(name: string): boolean {
  if (tried.has(name) || process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return false
  tried.add(name)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', name], { env, stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS })
  try {
    install()
  } catch {
    // A fresh machine's package lists may be empty or stale.
    execFileSync('apt-get', ['update'], { env, stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS })
    install()
  }
  return true
}
