import { existsSync, readdirSync } from 'node:fs'
import { isRoot, run } from './processes.js'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

export function postgresBinDir() {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(`${root}/${v}/bin/initdb`))
    .sort((a, b) => Number(b) - Number(a))
  return versions.length > 0 ? `${root}/${versions[0]}/bin` : undefined
}

/**
 * Debian's Chromium (for Playwright and Lighthouse) and PostgreSQL (for the tests against a real server):
 * installed with apt when we are root, otherwise a message that says what to install.
 */
export function ensureSystemPackages({ chromium = true, postgres = true } = {}) {
  const missing = []
  if (chromium && !existsSync(CHROMIUM_PATH)) missing.push('chromium')
  if (postgres && !postgresBinDir()) missing.push('postgresql')
  if (missing.length === 0) return
  if (!isRoot()) {
    throw new Error(
      `The tests need Debian's ${missing.join(' and ')}. Install with:\n  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`,
    )
  }
  console.log(`Installing ${missing.join(', ')} from Debian's packages...`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  run('apt-get', ['update', '-qq'], { env })
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env })
}
