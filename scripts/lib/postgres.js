import { execFileSync } from 'node:child_process'
import { chownSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort, isRoot, run } from './processes.js'
import { postgresBinDir } from './system-packages.js'

/** A throwaway PostgreSQL cluster on a free port (under a second with fsync off); stop() removes it. */
export async function startThrowawayPostgres() {
  const bin = postgresBinDir()
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)')
  const dir = mkdtempSync(path.join(tmpdir(), 'replypilot-pg-'))
  const dataDir = path.join(dir, 'data')
  const port = await freePort()
  // initdb refuses to run as root: the cluster belongs to the postgres user then.
  const asOwner = (cmd, args) =>
    isRoot()
      ? run('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'ignore' })
      : run(cmd, args, { stdio: 'ignore' })
  if (isRoot()) {
    chownSync(dir, postgresId('-u'), postgresId('-g'))
  }
  asOwner(`${bin}/initdb`, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  asOwner(`${bin}/pg_ctl`, [
    '-D',
    dataDir,
    '-l',
    path.join(dir, 'server.log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
    'start',
  ])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      try {
        asOwner(`${bin}/pg_ctl`, ['-D', dataDir, '-m', 'immediate', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/**
 * One database a vitest worker on the server of `url`, named `<name>_w1` … `<name>_w<count>`: two workers on one
 * database would hear each other's notifications and pollers. Returns the URL with `{worker}` where the number goes.
 */
export async function createWorkerDatabases(url, count) {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const base = new URL(url)
  const name = base.pathname.slice(1) || 'postgres'
  try {
    for (let worker = 1; worker <= count; worker++) {
      await client.query(`DROP DATABASE IF EXISTS "${name}_w${worker}"`)
      await client.query(`CREATE DATABASE "${name}_w${worker}"`)
    }
  } finally {
    await client.end()
  }
  base.pathname = `/${name}_w{worker}`
  return base.toString().replace(encodeURIComponent('{worker}'), '{worker}')
}

const postgresId = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
