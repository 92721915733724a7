import { describe, expect, it } from 'vitest'
import { ANALYTICS_TEXTS } from './analytics'
import { DASHBOARD_TEXTS } from './dashboard'
import { parseDashboardQuery } from './dashboard-query'

const params = (query: string) => new URLSearchParams(query)
// 23:30 UTC on Nov 24 is already Nov 25 in Berlin: the presets end on the organization's today.
const now = new Date('2026-11-24T23:30:00Z')

describe("the dashboard's query string", () => {
  it('defaults to the last 7 days ending today in the organization’s time zone, by day', () => {
    const parsed = parseDashboardQuery(params(''), 'Europe/Berlin', now)
    expect(parsed).toMatchObject({
      ok: true,
      period: '7d',
      query: { from: '2026-11-19', to: '2026-11-25', granularity: 'day' },
    })
    expect(parseDashboardQuery(params('period=today'), 'UTC', now)).toMatchObject({
      ok: true,
      query: { from: '2026-11-24', to: '2026-11-24', granularity: 'hour' },
    })
  })

  it('treats blank form fields as left out, and keeps the filters', () => {
    const channelId = '6f1c1f3e-7a5d-4a39-9d0e-2b8f6f0c1a11'
    const parsed = parseDashboardQuery(
      params(`period=30d&from=&to=&agentId=&channelId=${channelId}`),
      'UTC',
      now,
    )
    expect(parsed).toMatchObject({ ok: true, query: { channelId, from: '2026-10-26', to: '2026-11-24' } })
    expect(parsed.ok && parsed.query.agentId).toBeUndefined()
  })

  it('answers what is wrong with a period, a range or an id, as the API says it', () => {
    const errors = (query: string) => {
      const parsed = parseDashboardQuery(params(query), 'UTC', now)
      return parsed.ok ? [] : parsed.errors
    }
    expect(errors('period=year')).toEqual([DASHBOARD_TEXTS.periodInvalid])
    expect(errors('period=custom&from=2026-11-01')).toEqual([DASHBOARD_TEXTS.customNeedsDates])
    expect(errors('period=custom&from=2026-11-10&to=2026-11-01')).toEqual([ANALYTICS_TEXTS.rangeInverted])
    expect(errors('period=custom&from=2024-01-01&to=2026-11-01')).toEqual([ANALYTICS_TEXTS.rangeTooLong])
    expect(errors('channelId=not-an-id')).toHaveLength(1)
  })
})
