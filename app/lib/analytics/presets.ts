/**
 * The dashboard's preset periods, apart from lib/analytics/analytics' schemas: the page's client code names them without
 * loading zod and building the API's schemas at start-up.
 */
export const ANALYTICS_PRESETS = ['today', '7d', '30d'] as const
export type AnalyticsPreset = (typeof ANALYTICS_PRESETS)[number]
