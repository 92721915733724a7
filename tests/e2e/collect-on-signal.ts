import { writeFileSync } from 'node:fs'

/**
 * Loaded (`--import`) only into the hardening test's own server, which runs with `--expose-gc`: SIGUSR2 runs a full
 * garbage collection and then writes the process's memory use to MEMORY_REPORT. A resident-memory sample taken
 * without it measures when V8 last collected, not what the server keeps.
 */
const report = process.env.MEMORY_REPORT
const collect = (globalThis as { gc?: () => void }).gc
if (report && collect) {
  process.on('SIGUSR2', () => {
    collect()
    writeFileSync(report, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }))
  })
}
