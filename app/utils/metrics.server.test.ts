import { describe, expect, it } from 'vitest'
import { createLogger } from '~/utils/logger.server'
import { startMetricsListener } from '~/http/metrics-listener.server'
import { metricsAccess, recordWebhook } from '~/utils/metrics.server'
import { sample } from '../../tests/setup/route-server'

const quiet = createLogger({ sink: () => undefined })

describe('metricsAccess', () => {
  it('with METRICS_TOKEN, lets in only that bearer token, whatever the configuration', () => {
    for (const embedded of [true, false]) {
      const config = { metricsToken: 'a-long-metrics-token', embedded }
      expect(metricsAccess(config, 'Bearer a-long-metrics-token')).toBe('allowed')
      expect(metricsAccess(config, 'bearer a-long-metrics-token')).toBe('allowed')
      expect(metricsAccess(config, 'Bearer a-long-metrics-tokem')).toBe('unauthorized')
      expect(metricsAccess(config, 'Bearer a-long-metrics-token-and-more')).toBe('unauthorized')
      expect(metricsAccess(config, 'a-long-metrics-token')).toBe('unauthorized')
      expect(metricsAccess(config, null)).toBe('unauthorized')
    }
  })

  it('without a token: open on the embedded default, absent in a strict production configuration', () => {
    expect(metricsAccess({ metricsToken: undefined, embedded: true }, null)).toBe('allowed')
    expect(metricsAccess({ metricsToken: undefined, embedded: false }, null)).toBe('not-found')
    expect(metricsAccess({ metricsToken: undefined, embedded: false }, 'Bearer anything')).toBe('not-found')
  })
})

describe('the worker’s metrics listener', () => {
  async function listen(config: { metricsToken: string | undefined; embedded: boolean }) {
    const listener = await startMetricsListener({ port: 0, host: '127.0.0.1', config, logger: quiet })
    const url = `http://127.0.0.1:${listener.port}`
    return { url, close: listener.close }
  }

  it('serves this process’s registry over HTTP with the web process’s access rules', async () => {
    recordWebhook('telegram', 'accepted')
    const tokened = await listen({ metricsToken: 'worker-metrics-token', embedded: false })
    try {
      expect((await fetch(`${tokened.url}/metrics`)).status).toBe(401)
      const response = await fetch(`${tokened.url}/metrics`, {
        headers: { authorization: 'Bearer worker-metrics-token' },
      })
      expect(response.status).toBe(200)
      const body = await response.text()
      expect(sample(body, 'replypilot_webhooks_received_total', { platform: 'telegram' })).toBeGreaterThan(0)
      expect(body).toContain('process_resident_memory_bytes')
      expect((await fetch(`${tokened.url}/other`)).status).toBe(404)
    } finally {
      await tokened.close()
    }

    const strict = await listen({ metricsToken: undefined, embedded: false })
    const embedded = await listen({ metricsToken: undefined, embedded: true })
    try {
      expect((await fetch(`${strict.url}/metrics`)).status).toBe(404)
      expect((await fetch(`${embedded.url}/metrics`)).status).toBe(200)
    } finally {
      await Promise.all([strict.close(), embedded.close()])
    }
  })
})
