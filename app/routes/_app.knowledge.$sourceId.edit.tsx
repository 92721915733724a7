import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import { SourceNotFound } from '~/components/knowledge/delete-source-panel'
import { KNOWLEDGE_PATH } from '~/components/knowledge/paths'
import { SourceForm } from '~/components/knowledge/source-form'
import { getKnowledgeSource } from '~/services/knowledge/sources.server'
import { editSourceFromForm } from '~/http/knowledge-dialogs.server'
import { findInCurrentScope } from '~/http/organization.server'

export const handle = dialogHandle({ title: 'Edit Source' })

export async function loader({ request, params }: LoaderFunctionArgs) {
  const source = await findInCurrentScope(request, (scope) =>
    getKnowledgeSource(scope, params.sourceId ?? ''),
  )
  return { source }
}

/** A change is processed again; without JavaScript a success goes back to the list. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { status, body } = await editSourceFromForm(request, params.sourceId ?? '')
  if (body.saved && body.noscript) return redirect(KNOWLEDGE_PATH)
  return data(body, status)
}

export default function EditSourceDialog() {
  const { source } = useLoaderData<typeof loader>()
  const submission = useDialogFetcher<typeof action>(useActionData<typeof action>())
  if (!source) return <SourceNotFound />
  return <SourceForm key={source.id} kind={source.kind} source={source} submission={submission} />
}
