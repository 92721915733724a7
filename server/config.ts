import { ConfigError, getConfig, type Config } from '../app/runtime/config.server'

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
