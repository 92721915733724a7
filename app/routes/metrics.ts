import type { LoaderFunctionArgs } from '@remix-run/node'
import { metricsAccess, metricsRefusal, renderMetrics } from '~/utils/metrics.server'
import { getRuntime } from '~/runtime/runtime.server'

/**
 * Prometheus's scrape of this process (docs/decisions/019): with METRICS_TOKEN, only with that bearer token;
 * without it, open on the embedded default and absent in a strict production configuration.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { config } = await getRuntime()
  const access = metricsAccess(config, request.headers.get('authorization'))
  if (access !== 'allowed') {
    const refusal = metricsRefusal(access)
    return new Response(refusal.body, {
      status: refusal.status,
      headers: { ...refusal.headers, 'Cache-Control': 'no-store' },
    })
  }
  const { contentType, body } = await renderMetrics()
  return new Response(body, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } })
}
