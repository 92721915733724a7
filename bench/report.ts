import { loadavg } from 'node:os'

/** The end of a bench's run, the same for every bench: the machine's load, then its failures (exit 1) or `passed`. */
export function finishBench(failures: string[], passed: string): void {
  console.log(
    `\nload average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  if (failures.length > 0) {
    console.log(`\nFAILED:\n  - ${failures.join('\n  - ')}`)
    process.exit(1)
  }
  console.log(`\n${passed}`)
}

/** Runs a bench's main; anything it throws is printed and exits 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
