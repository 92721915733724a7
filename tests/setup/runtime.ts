import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { newQueueSchema, pgliteDataDir } from './database'
import { closeRuntime, getRuntime, type RuntimeOptions } from '~/runtime/runtime.server'

/**
 * The whole process as the server boots it (configuration read from the environment, database, pg-boss and,
 * unless WORKER_IN_PROCESS=false, the in-process worker), with `env` over the test defaults: the test database,
 * a data folder named for `name`, fresh secrets, its own queue schema, Telegram by webhook. `close` stops it and restores the
 * environment as it was.
 */
export async function bootRuntime(name: string, env: Record<string, string>, options: RuntimeOptions = {}) {
  const savedEnv = { ...process.env }
  const dataDir = mkdtempSync(path.join(tmpdir(), `replypilot-${name}-`))
  Object.assign(process.env, {
    DATABASE_URL: process.env.DATABASE_URL || 'memory://',
    DATA_DIR: dataDir,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    // No long polling unless a test asks for it: test files share a PostgreSQL database, and a poller would take
    // other files' bots (made with other encryption keys) and log that it cannot read their tokens.
    TELEGRAM_UPDATES: 'webhook',
    ...env,
  })
  const runtime = await getRuntime({
    queueSchema: newQueueSchema(),
    pgliteDataDir: await pgliteDataDir(),
    ...options,
  })
  return {
    runtime,
    async close() {
      await closeRuntime()
      process.env = savedEnv
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
