import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import { DeleteSourcePanel, SourceNotFound } from '~/components/knowledge/delete-source-panel'
import { KNOWLEDGE_PATH } from '~/components/knowledge/paths'
import { KNOWLEDGE_TEXTS } from '~/components/knowledge/texts'
import { deleteKnowledgeSource, getKnowledgeSource } from '~/services/knowledge/sources.server'
import { attemptInScope, findInCurrentScope, getCurrentScope } from '~/http/organization.server'

export const handle = dialogHandle({ title: 'Delete Source', size: 'md' })

export async function loader({ request, params }: LoaderFunctionArgs) {
  const found = await findInCurrentScope(request, (scope) => getKnowledgeSource(scope, params.sourceId ?? ''))
  return { source: found ? { title: found.title, kind: found.kind } : null }
}

/** Deletes the source and its passages; without JavaScript a success goes back to the list. */
export async function action({ request, params }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const sourceId = params.sourceId ?? ''
  const formData = await request.formData()
  const outcome = await attemptInScope(
    scope,
    (s) => deleteKnowledgeSource(s, sourceId),
    KNOWLEDGE_TEXTS.deleteFailed,
    { action: 'delete knowledge', sourceId },
  )
  if (!outcome.ok) return data({ deleted: null, error: outcome.failure.reason }, outcome.failure.status)
  if (formData.has('noscript')) return redirect(KNOWLEDGE_PATH)
  return { deleted: { id: sourceId }, error: null }
}

export default function DeleteSourceDialog() {
  const { source } = useLoaderData<typeof loader>()
  const submission = useDialogFetcher<typeof action>(useActionData<typeof action>())
  // The reload after the delete finds the source gone: the dialog keeps what it showed until it closes.
  const [shown, setShown] = useState(source)
  if (source && source !== shown) setShown(source)
  return shown ? <DeleteSourcePanel source={shown} submission={submission} /> : <SourceNotFound />
}
