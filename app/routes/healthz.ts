import { checkHealth } from '~/services/health/check-health.server'
import { getLogger } from '~/utils/logger.server'
import { getRuntime } from '~/runtime/runtime.server'

export async function loader() {
  try {
    const { database } = await getRuntime()
    return Response.json(await checkHealth(database), { headers: { 'Cache-Control': 'no-store' } })
  } catch (error) {
    getLogger().error('health check failed', { error })
    return Response.json({ status: 'error' }, { status: 503, headers: { 'Cache-Control': 'no-store' } })
  }
}
