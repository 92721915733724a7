// autocannon ships no types; only what bench/ingest.ts uses.
declare module 'autocannon' {
  type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string }
  type Options = {
    url: string
    connections?: number
    pipelining?: number
    amount?: number
    timeout?: number
    requests?: (Request & {
      setupRequest?: (request: Request, context: object) => Request
      /** Called with each answer (status, body, context, headers). */
      onResponse?: (status: number, body: string, context: object, headers: object) => void
    })[]
  }
  type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number }
  type Result = {
    duration: number
    latency: Histogram
    requests: Histogram & { total: number }
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
  }
  export default function autocannon(options: Options): Promise<Result>
}
