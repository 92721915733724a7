import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AgentsScreen } from '~/components/agents/agents-screen'
import { AGENT_TEXTS } from '~/components/agents/texts'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import { listAgents } from '~/services/agents/agents.server'
import { isAppError } from '~/utils/errors'
import { getCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

export const meta: MetaFunction = () => [{ title: `Agents · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  if (!scope) return { hasOrganization: false, agents: [], loadError: null }
  try {
    const { items } = await listAgents(scope)
    return { hasOrganization: true, agents: items, loadError: null }
  } catch (error) {
    const { logger } = await getRuntime()
    logger.error('listing agents failed', { error, organizationId: scope.organizationId })
    return {
      hasOrganization: true,
      agents: [],
      loadError: isAppError(error) ? error.message : AGENT_TEXTS.loadFailed,
    }
  }
}

export default function AgentsPage() {
  const { agents, hasOrganization, loadError } = useLoaderData<typeof loader>()
  return <AgentsScreen agents={agents} hasOrganization={hasOrganization} loadError={loadError} />
}
