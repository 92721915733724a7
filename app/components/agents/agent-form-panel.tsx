import { notifications } from '@mantine/notifications'
import { useNavigate } from '@remix-run/react'
import { useEffect } from 'react'
import { AgentForm } from './agent-form'
import { AGENTS_PATH } from './dialog-url'
import { AGENT_MESSAGES } from './messages'
import type { AgentActionResponse, AgentItem } from './types'
import { useAgentFetcher } from './use-agent-fetcher'
import { ignoreInterruption } from '~/lib/navigation'

const isSave = (response: AgentActionResponse | undefined) =>
  response?.intent === 'create' || response?.intent === 'update' ? response : undefined

/** The content of the Create New Agent / Edit Agent dialog: the form, its request, its toasts. */
export function AgentFormPanel({
  agent,
  noScriptData,
}: {
  agent?: AgentItem
  noScriptData: AgentActionResponse | undefined
}) {
  const navigate = useNavigate()
  const { hydrated, FormComponent, response, settled, pending } = useAgentFetcher(noScriptData)
  const done = isSave(settled)

  useEffect(() => {
    if (!done) return
    const creating = done.intent === 'create'
    if (done.saved) {
      notifications.show({
        color: 'green',
        message: creating ? AGENT_MESSAGES.created : AGENT_MESSAGES.updated,
      })
      ignoreInterruption(navigate(AGENTS_PATH, { preventScrollReset: true }))
    } else if (done.error) {
      notifications.show({
        color: 'red',
        message: creating ? AGENT_MESSAGES.createFailed(done.error) : AGENT_MESSAGES.updateFailed(done.error),
      })
    }
  }, [done, navigate])

  return (
    <AgentForm
      agent={agent}
      lastResult={isSave(response)?.result}
      pending={pending}
      hydrated={hydrated}
      FormComponent={FormComponent}
    />
  )
}
