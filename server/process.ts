import { ConfigError, getConfig, type Config } from '../app/runtime/config.server'
import type { Logger } from '../app/utils/logger.server'

/** The checked configuration for a process entry; a configuration problem is printed as it is, and the process exits. */
export function readConfigOrExit(): Config {
  try {
    return getConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`${error.message}\n`)
    process.exit(1)
  }
}

/**
 * Calls `stop` once, on the first SIGTERM or SIGINT (logged); a stop that has not ended the process within
 * `graceMs` exits it with 1.
 */
export function stopOnSignal(logger: Logger, graceMs: number, stop: () => void): void {
  let stopping = false
  const onSignal = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('stopping', { signal })
    setTimeout(() => process.exit(1), graceMs).unref()
    stop()
  }
  process.on('SIGTERM', () => onSignal('SIGTERM'))
  process.on('SIGINT', () => onSignal('SIGINT'))
}

/** Runs a process entry's start-up; a failure is printed (a configuration problem as it is) and exits with 1. */
export function runEntry(logger: Logger, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    // By name: the Remix build holds its own copy of the configuration module, and of ConfigError.
    if (error instanceof Error && error.name === 'ConfigError') process.stderr.write(`${error.message}\n`)
    else logger.error('failed to start', { error })
    process.exit(1)
  })
}
