import { createServer, type Server } from 'node:http'
import type { Logger } from '~/utils/logger.server'
import { metricsAccess, metricsRefusal, renderMetrics } from '~/utils/metrics.server'

/**
 * `GET /metrics` on a port of its own, for a process without the web server: `npm run worker` with
 * WORKER_METRICS_PORT. Same registry and same access rules as the web process's /metrics.
 */
export async function startMetricsListener({
  port,
  host,
  config,
  logger,
}: {
  port: number
  host?: string
  config: { metricsToken: string | undefined; embedded: boolean }
  logger: Logger
}): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n')
    }
    const access = metricsAccess(config, req.headers.authorization)
    if (access !== 'allowed') {
      const refusal = metricsRefusal(access)
      return void res.writeHead(refusal.status, refusal.headers).end(refusal.body)
    }
    renderMetrics().then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
      (error: unknown) => {
        logger.error('metrics scrape failed', { error })
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Metrics unavailable\n')
      },
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const address = server.address()
  const bound = address && typeof address === 'object' ? address.port : port
  logger.info('metrics listening', { url: `http://${host ?? 'localhost'}:${bound}/metrics` })
  return {
    server,
    port: bound,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
