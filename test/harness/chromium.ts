// The Chromium that browser tests drive with playwright-core: CHROMIUM_PATH, else the Debian package's binary, which is
// installed first when missing and the machine allows it (debianPackage.ts).
import { existsSync } from 'node:fs'
import { installDebianPackage } from './debianPackage.js'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

const found = (): string | undefined => {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined
  return CANDIDATES.find((path) => existsSync(path))
}

export function chromiumPath(): string {
  const path = found()
  if (path) return path
  if (process.env.CHROMIUM_PATH) throw new Error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist`)
  const installed = installDebianPackage('chromium') ? found() : undefined
  if (installed) return installed
  throw new Error('No Chromium for the browser tests: install the Debian package (`apt-get install chromium`) or set CHROMIUM_PATH')
}
