import { lazy } from 'react'

/*
 * The charts, loaded only when the dashboard mounts them (one chunk with recharts): the server and a browser
 * without JavaScript show the tables alone, and no other page's bundle carries recharts.
 */
const charts = () => import('./charts')

export const OutcomesChart = lazy(() => charts().then((m) => ({ default: m.OutcomesChart })))
export const ResponseTimeChart = lazy(() => charts().then((m) => ({ default: m.ResponseTimeChart })))
export const TokensChart = lazy(() => charts().then((m) => ({ default: m.TokensChart })))
export const TrendLine = lazy(() => charts().then((m) => ({ default: m.TrendLine })))
