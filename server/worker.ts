import { existsSync } from 'node:fs'
import { createLogger } from '../app/utils/logger.server'
import { startMetricsListener } from '../app/http/metrics-listener.server'
import { closeRuntime, getRuntime } from '../app/runtime/runtime.server'
import { readConfigOrExit, runEntry, stopOnSignal } from './process'

/**
 * `npm run worker`: a process that only works the job queues (the reply pipeline, the hourly session purge) and,
 * when there is no public URL for webhooks, long-polls the Telegram bots (one worker per bot at a time, ADR 022).
 * Run any number of them beside web processes started with WORKER_IN_PROCESS=false, on PostgreSQL
 * (DATABASE_URL): the embedded database can be opened by one process only, where the web process is the worker.
 * SIGTERM or SIGINT lets the jobs in progress finish, then exits.
 */
// Variables already in the environment win over the file.
if (existsSync('.env')) process.loadEnvFile('.env')

const config = readConfigOrExit()
const logger = createLogger({ level: config.logLevel, base: { component: 'worker' } })

async function main() {
  const url = config.databaseUrl
  if (!url || url.startsWith('memory://')) {
    process.stderr.write(
      'npm run worker needs DATABASE_URL (PostgreSQL). On the embedded database the web process (npm start) is the worker.\n',
    )
    process.exit(1)
  }
  await getRuntime({ worker: true })
  // The worker's counters (replies, model calls, pipeline latency) live in this process: it has its own scrape.
  const metrics = config.workerMetricsPort
    ? await startMetricsListener({ port: config.workerMetricsPort, config, logger })
    : undefined
  logger.info('worker started', { metricsPort: metrics?.port ?? null })

  stopOnSignal(logger, 15_000, () => {
    Promise.all([closeRuntime(), metrics?.close()]).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('failed to stop cleanly', { error })
        process.exit(1)
      },
    )
  })
}

runEntry(logger, main)
