import type { SubmissionResult } from '@conform-to/react'
import { notifications } from '@mantine/notifications'
import { useNavigate } from '@remix-run/react'
import { useEffect } from 'react'
import type { DialogSubmission } from '~/components/hooks/use-dialog-fetcher'
import { AgentForm } from './agent-form'
import { AGENT_TEXTS } from './texts'
import { AGENTS_PATH } from './paths'
import type { AgentItem, KnowledgeSourceOption } from './types'
import type { AgentTemplate } from '~/lib/agents/templates'
import { ignoreInterruption } from '~/lib/shared/navigation'

/** What the create and update actions answer: the form's result, the saved agent, or why it was not saved. */
type SaveAnswer = { result: SubmissionResult<string[]>; saved: { id: string } | null; error: string | null }

/** The content of the Create New Agent / Edit Agent dialog: the form, its request, its toasts. */
export function AgentFormPanel({
  agent,
  template,
  submission,
  timeZones,
  knowledgeSources,
}: {
  agent?: AgentItem
  template?: AgentTemplate
  submission: DialogSubmission<SaveAnswer>
  timeZones: string[]
  knowledgeSources: KnowledgeSourceOption[]
}) {
  const navigate = useNavigate()
  const { hydrated, FormComponent, response, settled: done, pending } = submission
  const creating = agent === undefined

  useEffect(() => {
    if (!done) return
    if (done.saved) {
      notifications.show({
        color: 'green',
        message: creating ? AGENT_TEXTS.created : AGENT_TEXTS.updated,
      })
      ignoreInterruption(navigate(AGENTS_PATH, { preventScrollReset: true }))
    } else if (done.error) {
      notifications.show({
        color: 'red',
        message: creating ? AGENT_TEXTS.createFailed(done.error) : AGENT_TEXTS.updateFailed(done.error),
      })
    }
  }, [done, creating, navigate])

  return (
    <AgentForm
      agent={agent}
      template={template}
      lastResult={response?.result}
      pending={pending}
      hydrated={hydrated}
      timeZones={timeZones}
      knowledgeSources={knowledgeSources}
      FormComponent={FormComponent}
    />
  )
}
